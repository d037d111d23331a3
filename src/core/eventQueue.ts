/** What happened to a body during a step. Delivered after the step, never from inside the solver loop. */
export enum SoftBodyEventType {
    /** The body fell asleep (it stopped moving; it is no longer integrated). */
    Sleep = 0,
    /** The body woke up. */
    Wake = 1,
    /** An edge stretched beyond the body's over-stretch ratio; `element` is the stretch constraint, `value` the ratio. */
    OverStretch = 2,
    /** A position or velocity became non-finite or ran away; the body was restored, at rest, to its last valid positions. */
    InvalidState = 3,
    /** A fixed capacity was exceeded (`element`: 0 contacts, 1 broad-phase grid, 2 tear particles, 3 soft contacts); the step degraded gracefully. */
    CapacityExceeded = 4,
}

/**
 * A fixed-capacity queue of events recorded during a step. Structure of arrays, so recording allocates nothing;
 * when full, further events are counted in {@link EventQueue.dropped} and not stored.
 */
export class EventQueue {
    /** Event types. */
    public readonly types: Int32Array;
    /** Body ids. */
    public readonly bodies: Int32Array;
    /** Element indices (meaning depends on the type; −1 when none). */
    public readonly elements: Int32Array;
    /** Values (meaning depends on the type). */
    public readonly values: Float64Array;
    /** Number of stored events. */
    public count = 0;
    /** Events that did not fit since the last {@link clear}. */
    public dropped = 0;

    /** @param capacity - how many events one step can hold */
    public constructor(capacity = 256) {
        this.types = new Int32Array(capacity);
        this.bodies = new Int32Array(capacity);
        this.elements = new Int32Array(capacity);
        this.values = new Float64Array(capacity);
    }

    /** Records an event; returns false when the queue was full (the event is then only counted in {@link dropped}). */
    public push(type: SoftBodyEventType, body: number, element: number, value: number): boolean {
        const k = this.count;
        if (k >= this.types.length) {
            this.dropped++;
            return false;
        }
        this.types[k] = type;
        this.bodies[k] = body;
        this.elements[k] = element;
        this.values[k] = value;
        this.count = k + 1;
        return true;
    }

    /** Empties the queue. */
    public clear(): void {
        this.count = 0;
        this.dropped = 0;
    }
}
