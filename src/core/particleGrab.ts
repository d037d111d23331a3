import { finiteNumber, indexBelow } from "./argumentChecks.js";
import type { SoftBody } from "./softBody.js";

/**
 * Pin weight a grab holds its particle with when no stiffness is given: a soft pin (see `pinComplianceFromWeight`)
 * of about 1 mm per newton, firm enough to lift a cloth by one particle, soft enough not to tear at it.
 */
export const DEFAULT_GRAB_STIFFNESS = 0.9;

/**
 * Dragging one particle of a body, as with the pointer: {@link grab} makes it a pin of the given weight whose target
 * the caller moves ({@link move}); {@link release} gives it back the pin weight and target it had. Only a particle
 * with a pin weight below 1 can be grabbed: a fixed particle belongs to whatever placed it.
 */
export class ParticleGrab {
    /** The particle held, or −1. */
    public particle = -1;

    private _savedWeight = 0;
    private readonly _savedTarget = new Float64Array(3);

    /**
     * Starts dragging `particle` of `body` towards `(x, y, z)` (world, m), releasing the particle held before.
     * @param stiffness - pin weight while held, in (0, 1]: 1 moves it exactly with the target (default
     *   {@link DEFAULT_GRAB_STIFFNESS})
     * @throws RangeError for a particle out of range, a stiffness outside (0, 1] or a target that is not finite;
     *   Error for a particle pinned with weight 1
     */
    public grab(body: SoftBody, particle: number, x: number, y: number, z: number, stiffness = DEFAULT_GRAB_STIFFNESS): void {
        indexBelow(particle, body.particleCount, "grab: particle");
        finiteNumber(stiffness, "grab: stiffness");
        if (!(stiffness > 0 && stiffness <= 1)) {
            throw new RangeError(`grab: stiffness must be in (0, 1], got ${stiffness}`);
        }
        checkTarget(x, y, z, "grab");
        if (body.pins.weights[particle] >= 1) {
            throw new Error(`grab: particle ${particle} is pinned with weight 1; unpin it to drag it`);
        }
        this.release(body);
        this.particle = particle;
        this._savedWeight = body.pins.weights[particle];
        this._savedTarget.set(body.pins.targetsEnd.subarray(3 * particle, 3 * particle + 3));
        body.setPinWeight(particle, stiffness);
        this.move(body, x, y, z);
    }

    /** Moves the held particle's target to `(x, y, z)` (world, m) and wakes the body; does nothing when none is held. */
    public move(body: SoftBody, x: number, y: number, z: number): void {
        checkTarget(x, y, z, "moveGrab");
        if (this.particle >= 0) {
            body.setPinTarget(this.particle, x, y, z);
            body.wake();
        }
    }

    /** Lets the held particle go: its pin weight and target are those it had before the grab. Nothing when none is held. */
    public release(body: SoftBody): void {
        const p = this.particle;
        if (p < 0) {
            return;
        }
        this.particle = -1;
        // A snapshot restored meanwhile may have taken the particle away (a tear undone).
        if (p >= body.particleCount) {
            return;
        }
        body.setPinWeight(p, this._savedWeight);
        if (this._savedWeight > 0) {
            body.setPinTarget(p, this._savedTarget[0], this._savedTarget[1], this._savedTarget[2]);
        }
    }
}

function checkTarget(x: number, y: number, z: number, name: string): void {
    finiteNumber(x, `${name}: target.x`);
    finiteNumber(y, `${name}: target.y`);
    finiteNumber(z, `${name}: target.z`);
}
