import type { SoftBody, XpbdWorld } from "../core/index.js";
import type { ConstraintRecords } from "./bodyRecords.js";
import { POSE_VEC4S } from "./particlePassShader.js";
import { ParamsWords, UNIFORM_STRIDE } from "./substepParams.js";

/** WebGPU's `UNIFORM | COPY_DST` buffer usage. */
const UNIFORM_COPY_DST = 0x40 | 0x8;

/**
 * The step's uniforms: one `Params` record per substep (see `substepParams.ts`), computed from the world and the
 * body as `XpbdWorld.step` computes its numbers (in f64, stored as f32), and written to the GPU with one
 * `writeBuffer` per step.
 */
export class StepParams {
    /** The uniform buffer, {@link UNIFORM_STRIDE} bytes per substep. */
    public buffer: GPUBuffer;
    /** Whether this step computes aerodynamic forces. */
    public aerodynamics = false;
    /** Whether this step projects tethers. */
    public tethers = false;

    /** The records as written, seen as floats and as unsigned integers. */
    private _floats = new Float32Array(UNIFORM_STRIDE / 4);
    private _words = new Uint32Array(this._floats.buffer);
    /** Compliance / h² of each constraint set: the first four go to `Params.alpha`, a fifth to `Params.alpha4`. */
    private readonly _alpha = new Float32Array(5);
    /** The first four of {@link _alpha} (a view made once: the step allocates nothing). */
    private readonly _alphaVec4 = this._alpha.subarray(0, 4);

    public constructor(private readonly _device: GPUDevice) {
        this.buffer = this._create(1);
    }

    /** Byte offset of substep `s`'s record. */
    public offset(s: number): number {
        return s * UNIFORM_STRIDE;
    }

    /**
     * Computes and uploads the records of a step of length `dt`. `poseBase` is the vec4 index where the pose records
     * start in the collider buffer, `attachmentBase` where the attachment records do, `motionBase` where the dynamic
     * colliders' motion records do, `impulseBase` the word of the first impulse accumulator, `slots` the number of collider
     * shapes. Returns whether the buffer was replaced (the
     * substeps outgrew it), so bind groups that use it must be rebuilt.
     */
    public write(
        world: XpbdWorld,
        body: SoftBody,
        constraints: ConstraintRecords,
        dt: number,
        slots: number,
        poseBase: number,
        attachmentBase: number,
        motionBase: number,
        impulseBase: number,
    ): boolean {
        const substeps = world.substeps;
        let replaced = false;
        if (this._floats.byteLength < substeps * UNIFORM_STRIDE) {
            this._floats = new Float32Array((substeps * UNIFORM_STRIDE) / 4);
            this._words = new Uint32Array(this._floats.buffer);
            this.buffer.destroy();
            this.buffer = this._create(substeps);
            replaced = true;
        }
        const f = this._floats;
        const u = this._words;
        const h = dt / substeps;
        const invH2 = 1 / (h * h);
        const air = world.airDensity * (body.dragCoefficient + body.liftCoefficient);
        this.aerodynamics = air !== 0 && body.windScale !== 0 && body.triangles.length > 0;
        this.tethers = body.tethers.enabled && body.tethers.count > 0;
        const alpha = this._alpha;
        // The gas, last when present, reads no compliance slot (see `packConstraints`).
        for (let k = 0; k < Math.min(body.constraintSets.length, alpha.length); k++) {
            alpha[k] = body.constraintSets[k].compliance * invH2;
        }
        const gas = body.gas;
        const gasPressureVolume = gas === null ? 0 : gas.pressure * gas.restVolume;
        const W = ParamsWords;
        for (let s = 0; s < substeps; s++) {
            const o = (s * UNIFORM_STRIDE) / 4;
            for (let axis = 0; axis < 3; axis++) {
                f[o + W.gravityH + axis] = world.gravity[axis] * h;
                f[o + W.wind + axis] = world.wind[axis] * body.windScale;
            }
            f[o + W.h] = h;
            f[o + W.airFactor] = this.aerodynamics ? world.airDensity / 12 : 0;
            f.set(this._alphaVec4, o + W.alpha);
            f[o + W.alpha4] = alpha[4];
            f[o + W.invH] = 1 / h;
            f[o + W.t] = (s + 1) / substeps;
            f[o + W.dt] = dt;
            f[o + W.thickness] = body.thickness;
            f[o + W.strainLimit] = body.strainLimit;
            f[o + W.gasPressureVolume] = gasPressureVolume;
            f[o + W.gasOrientation] = gas === null ? 1 : gas.orientation;
            f[o + W.invH2] = invH2;
            f[o + W.tetherSlack] = body.tethers.slack;
            f[o + W.dampingFactor] = 1 - Math.exp(-body.damping * dt);
            f[o + W.dragCoefficient] = body.dragCoefficient;
            f[o + W.liftCoefficient] = body.liftCoefficient;
            u[o + W.particleCount] = body.particleCount;
            u[o + W.lambdaCount] = constraints.lambdaCount;
            u[o + W.triangleCount] = body.triangles.length / 3;
            u[o + W.slotCount] = slots;
            u[o + W.tethers] = this.tethers ? 1 : 0;
            u[o + W.dampPinned] = body.pins.kinematicCount > 0 ? 1 : 0;
            u[o + W.poseBase] = poseBase + s * Math.max(slots, 1) * POSE_VEC4S;
            u[o + W.pinLambdaBase] = constraints.pinLambdaBase;
            u[o + W.attachmentBase] = attachmentBase;
            u[o + W.motionBase] = motionBase;
            u[o + W.impulseBase] = impulseBase;
            u[o + W.attachmentCount] = body.attachments.count;
        }
        this._device.queue.writeBuffer(this.buffer, 0, f.buffer, 0, substeps * UNIFORM_STRIDE);
        return replaced;
    }

    /** Releases the buffer. */
    public dispose(): void {
        this.buffer.destroy();
    }

    private _create(substeps: number): GPUBuffer {
        return this._device.createBuffer({ label: "xpbd substep params", size: substeps * UNIFORM_STRIDE, usage: UNIFORM_COPY_DST });
    }
}
