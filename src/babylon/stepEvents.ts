/**
 * A step's events on their way out of the core world: each body's events to its impostor's observables, and the
 * solver's capacity overruns to the plugin's {@link XpbdPlugin.onCapacityExceededObservable} (one warning per kind).
 * Runs after the step, never inside it.
 */
import type { Nullable } from "@babylonjs/core/types";
import type { Observable } from "@babylonjs/core/Misc/observable";
import { Logger } from "@babylonjs/core/Misc/logger";
import { SOFT_CONTACT_CAPACITY_ELEMENT, SoftBodyEventType, TEAR_CAPACITY_ELEMENT, type EventQueue } from "../core/index.js";
import type { SoftImpostor } from "./softImpostor.js";

/** Which fixed capacity of the solver a step ran out of; see {@link XpbdCapacityEvent}. */
export type XpbdCapacityKind = "contacts" | "grid" | "events" | "tearParticles" | "softContacts";

/**
 * Payload of {@link XpbdPlugin.onCapacityExceededObservable}: a fixed capacity of the solver was exceeded in the last
 * step, which went on in a degraded way. One object per plugin, reused (copy what you keep).
 */
export interface XpbdCapacityEvent {
    /**
     * `"contacts"`: a body found more contact candidates than it holds (4 per particle): some contacts were dropped;
     * reported once per body. `"grid"`: the broad-phase grid ran out of entries ({@link XpbdPluginOptions.gridCapacity}):
     * the shapes left over are tested against every particle; reported once per plugin. `"events"`: more events than
     * {@link XpbdPluginOptions.eventCapacity} in one step: the rest were dropped; reported for every such step.
     * `"tearParticles"`: a tearing cloth used up its `maxTearParticles` and stops tearing; reported once per cloth.
     * `"softContacts"`: a substep found more contacts between impostors (or within one) than
     * {@link XpbdPluginOptions.softContactCapacity}: the rest were dropped; reported once per plugin.
     */
    kind: XpbdCapacityKind;
    /** The impostor whose body ran out (`"contacts"`, `"tearParticles"`); null for the others. */
    impostor: Nullable<SoftImpostor>;
    /** The capacity exceeded: the body's contact candidates, the grid's entries, the events per step, or the cloth's tear particles. */
    capacity: number;
    /** For `"events"`, how many events that step dropped; otherwise 0. */
    dropped: number;
}

/** Hands a plugin's step events to its impostors and capacity observers; one per plugin. */
export class StepEventDispatcher {
    private readonly _capacityEvent: XpbdCapacityEvent = { kind: "events", impostor: null, capacity: 0, dropped: 0 };
    /** Kinds of capacity already warned about. */
    private readonly _capacityWarned = new Set<XpbdCapacityKind>();

    /** @param _capacityObservable - the plugin's `onCapacityExceededObservable` */
    public constructor(private readonly _capacityObservable: Observable<XpbdCapacityEvent>) {}

    /** Fires the impostors' observables for the world's events of the last step, and reports capacity overruns. */
    public dispatch(events: EventQueue, impostors: readonly SoftImpostor[]): void {
        for (let e = 0; e < events.count; e++) {
            const id = events.bodies[e];
            if (events.types[e] === SoftBodyEventType.CapacityExceeded) {
                const element = events.elements[e];
                const kind =
                    element === 0
                        ? "contacts"
                        : element === TEAR_CAPACITY_ELEMENT
                          ? "tearParticles"
                          : element === SOFT_CONTACT_CAPACITY_ELEMENT
                            ? "softContacts"
                            : "grid";
                this._capacityExceeded(impostors, kind, id, events.values[e], 0);
                continue;
            }
            for (let i = 0; i < impostors.length; i++) {
                if (impostors[i].body.id === id) {
                    impostors[i]._notifyEvent(events.types[e], events.elements[e], events.values[e]);
                    break;
                }
            }
        }
        if (events.dropped > 0) {
            this._capacityExceeded(impostors, "events", -1, events.types.length, events.dropped);
        }
    }

    /** Warns the first time for each kind, and tells the observers. */
    private _capacityExceeded(
        impostors: readonly SoftImpostor[],
        kind: XpbdCapacityKind,
        bodyId: number,
        capacity: number,
        dropped: number,
    ): void {
        let impostor: Nullable<SoftImpostor> = null;
        for (let i = 0; i < impostors.length; i++) {
            if (impostors[i].body.id === bodyId) {
                impostor = impostors[i];
                break;
            }
        }
        if (!this._capacityWarned.has(kind)) {
            this._capacityWarned.add(kind);
            Logger.Warn(
                kind === "contacts"
                    ? `XpbdPlugin: mesh "${impostor?.mesh.name}" found more contacts in one step than its capacity of ${capacity} ` +
                          "(4 per particle); the farthest were dropped"
                    : kind === "grid"
                      ? `XpbdPlugin: the broad-phase grid ran past its capacity of ${capacity} entries (gridCapacity); the shapes ` +
                        "left over are tested against every particle, which is slower (raise gridCapacity or cellSize)"
                      : kind === "softContacts"
                        ? `XpbdPlugin: a substep found more contacts between impostors than its capacity of ${capacity} ` +
                          "(softContactCapacity); the rest were dropped (raise softContactCapacity)"
                        : kind === "tearParticles"
                          ? `XpbdPlugin: cloth "${impostor?.mesh.name}" used up its ${capacity} tear particles (maxTearParticles) and ` +
                            "stops tearing (raise maxTearParticles)"
                          : `XpbdPlugin: ${dropped} events of one step did not fit the event queue's capacity of ${capacity} ` +
                            "(eventCapacity) and were dropped (raise eventCapacity)",
            );
        }
        const event = this._capacityEvent;
        event.kind = kind;
        event.impostor = impostor;
        event.capacity = capacity;
        event.dropped = dropped;
        this._capacityObservable.notifyObservers(event);
    }
}
