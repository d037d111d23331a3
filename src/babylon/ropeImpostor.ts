/**
 * A rope: a chain of particles along a path, with stretch and bend, drawn as a tube or as lines, pinned to nodes and
 * bones like any impostor and tied to Havok bodies with two-way coupling (`attachToBody`).
 */
import type { Nullable } from "@babylonjs/core/types";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Logger } from "@babylonjs/core/Misc/logger";
import { EngineStore } from "@babylonjs/core/Engines/engineStore";
import { CreateTube } from "@babylonjs/core/Meshes/Builders/tubeBuilder";
import { CreateLines } from "@babylonjs/core/Meshes/Builders/linesBuilder";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import {
    getDefaults,
    positiveFinite,
    resolveDefaultsVersion,
    SoftBody,
    unitInterval,
    type Collider,
    type RopeDefaults,
} from "../core/index.js";
import { buildRopeChain } from "../meshing/index.js";
import { RopeRenderSync, type RopeRender } from "./ropeRenderSync.js";
import { SoftImpostor } from "./softImpostor.js";
import { coreOptions, type SoftImpostorOptions, type SoftImpostorOptionValues } from "./softImpostorOptions.js";
import { XpbdPlugin } from "./xpbdPlugin.js";

/**
 * Options of a {@link RopeImpostor}; see {@link SoftImpostorOptions} for the shared ones (a rope has no surface: no
 * density, self-collision or shape matching, and the air does not push it). Defaults: {@link ROPE_IMPOSTOR_DEFAULTS}.
 */
export interface RopeImpostorOptions extends Omit<SoftImpostorOptions, "thickness" | "density" | "selfCollision" | "shapeMatching"> {
    /** Total mass in kg, spread along the rope by length. Default 0.2. */
    mass?: number;
    /**
     * Radius in metres: the tube drawn, and the collision thickness (particles stay this far from Havok bodies).
     * Default 0.01, or the radius of a tube mesh given.
     */
    radius?: number;
    /**
     * Number of segments (particles − 1) of a rope built from a path: the path is cut into this many equal pieces.
     * Default: pieces of about 5 cm (`ROPE_IMPOSTOR_DEFAULTS.segmentLength`). A rope built from a mesh has one particle
     * per path point; a different count throws.
     */
    segments?: number;
    /**
     * Resistance to bending in [0, 1]: the compliance of a distance constraint across each joint
     * (`complianceFromStiffness(s, "distance")`: 0 is 1e-2 m/N, a slack rope; 1 is rigid). Default 0.2.
     */
    bendStiffness?: number;
    /**
     * How a rope built from a path is drawn: `"tube"` (a `CreateTube` of {@link radius}, rebuilt in place) or
     * `"lines"` (a `CreateLines` strip). Default `"tube"`. A mesh given is drawn as what it is.
     */
    render?: RopeRender;
    /** Particles (= path points) pinned with weight 1 where they are. Default none. */
    pins?: ArrayLike<number>;
}

/** Defaults of the rope-only options in the newest defaults version (every version: `getDefaults(version).rope`). */
export const ROPE_IMPOSTOR_DEFAULTS: Readonly<RopeDefaults> = getDefaults().rope;

/** Sides of the tube a rope built from a path is drawn with. */
const TUBE_TESSELLATION = 12;

/** Particles tied to one Havok body, and where (in the body's frame). */
interface BodyAttachment {
    body: PhysicsBody;
    particles: Int32Array;
    /** Anchor per particle in the body's frame (xyz, m). */
    anchors: Float64Array;
    /** The collider mirroring the body that the particles are attached to in the core; null until it exists. */
    collider: Nullable<Collider>;
}

/**
 * Simulates a rope. Particles, render vertices and path points are the same here: vertex index `i` of the API
 * ({@link pinTo}, {@link setPinWeight}, {@link attachToBody}) is particle `i`, counted from the path's start.
 * @example
 * ```ts
 * const rope = new RopeImpostor([new Vector3(0, 3, 0), new Vector3(0, 1, 0)], { radius: 0.02, mass: 0.3, pins: [0] }, xpbd);
 * rope.attachToBody([rope.particleCount - 1], crate.physicsBody!); // the crate hangs on the rope's end
 * ```
 */
export class RopeImpostor extends SoftImpostor {
    /** How the rope is drawn. */
    public readonly render: RopeRender;
    /** Rest length of the rope (m). */
    public readonly length: number;

    private readonly _ownsMesh: boolean;
    private readonly _attachments: BodyAttachment[] = [];
    private readonly _position = new Vector3();
    private readonly _inverseRotation = new Quaternion();

    /**
     * @param meshOrPath - the path the rope lies along (world, m; at least 2 points; a tube or lines mesh is created
     *   for it and disposed with the impostor), or a mesh made by `CreateTube` or `CreateLines` from a path (one
     *   particle per path point; its vertex buffers become updatable)
     * @param options - see {@link RopeImpostorOptions}
     * @param plugin - the {@link XpbdPlugin} to join; default the one of the mesh's scene, or for a path of the last
     *   scene created (as Babylon's mesh builders choose their scene)
     * @throws Error for a disposed mesh, a mesh not made by `CreateTube` or `CreateLines`, or one with a Havok body;
     *   RangeError for a path of fewer than 2 points or of no length, or an invalid option (a radius or mass that is
     *   not positive, a stiffness outside [0, 1], a segment count that is not a positive integer)
     */
    public constructor(meshOrPath: Mesh | readonly Vector3[], options: RopeImpostorOptions = {}, plugin?: XpbdPlugin) {
        const fromPath = Array.isArray(meshOrPath);
        const xpbd = fromPath ? pathPlugin(plugin) : XpbdPlugin._ForMesh(meshOrPath as Mesh, plugin, "RopeImpostor");
        const defaultsVersion = resolveDefaultsVersion(options.defaultsVersion ?? xpbd.defaultsVersion, "RopeImpostor: defaultsVersion");
        const defaults = getDefaults(defaultsVersion);
        const o = { ...defaults.impostor, ...defaults.rope, ...options };
        positiveFinite(o.mass, "RopeImpostor: mass");
        unitInterval(o.bendStiffness, "RopeImpostor: bendStiffness");
        const source = fromPath ? readPath(meshOrPath as readonly Vector3[]) : readRopeMesh(meshOrPath as Mesh);
        const radius = positiveFinite(options.radius ?? source.radius ?? o.radius, "RopeImpostor: radius");
        if (options.render !== undefined && options.render !== "tube" && options.render !== "lines") {
            throw new RangeError(`RopeImpostor: render must be "tube" or "lines", got ${String(options.render)}`);
        }
        const render = source.render ?? o.render;
        if (!fromPath && options.render !== undefined && options.render !== render) {
            throw new RangeError(`RopeImpostor: mesh "${(meshOrPath as Mesh).name}" is drawn as ${render}, not ${options.render}`);
        }
        const pointCount = source.points.length / 3;
        if (!fromPath && options.segments !== undefined && options.segments !== pointCount - 1) {
            throw new RangeError(
                `RopeImpostor: mesh "${(meshOrPath as Mesh).name}" has ${pointCount} path points, so ${pointCount - 1} segments, not ${options.segments}`,
            );
        }
        const chain = fromPath ? buildRopeChain(source.points, o.mass, o.segments, o.segmentLength) : buildRopeChain(source.points, o.mass);
        const stiffness = { stretch: o.stretchStiffness, shear: o.bendStiffness, bend: o.bendStiffness, volume: 1 };
        const resolved = { ...o, radius, thickness: radius, selfCollision: false };
        // The joints' distance constraints are the body's second distance set (its "shear"): see `buildRopeChain`.
        const bodyOptions = { ...coreOptions("RopeImpostor", resolved, stiffness), defaultsVersion };
        const body = new SoftBody(
            { positions: chain.positions, stretch: chain.stretch, shear: chain.bend, particleMasses: chain.masses },
            bodyOptions,
        );
        const n = body.particleCount;
        if (o.pins) {
            for (let k = 0; k < o.pins.length; k++) {
                const v = o.pins[k];
                if (!Number.isInteger(v) || v < 0 || v >= n) {
                    throw new RangeError(`RopeImpostor: pin ${v} is out of range [0, ${n})`);
                }
                body.setPinWeight(v, 1);
            }
        }
        const mesh = fromPath ? createRopeMesh(xpbd, chain.positions, radius, render) : (meshOrPath as Mesh);
        const identity = new Int32Array(n);
        for (let p = 0; p < n; p++) {
            identity[p] = p;
        }
        super("rope", mesh, body, identity, xpbd, resolved, stiffness, new RopeRenderSync(mesh, render, chain.positions));
        this.render = render;
        this.length = chain.length;
        this._ownsMesh = fromPath;
    }

    /** Number of particles (segments + 1). */
    public get particleCount(): number {
        return this.body.particleCount;
    }

    /** Radius (m): the collision thickness, and the tube's radius as built. */
    public get radius(): number {
        return this.body.thickness;
    }

    /** Bend stiffness in [0, 1] (see {@link RopeImpostorOptions.bendStiffness}). */
    public override get bendStiffness(): number {
        return this.shearStiffness;
    }
    public override set bendStiffness(value: number) {
        unitInterval(value, "RopeImpostor: bendStiffness");
        // The joints are the body's second distance set, which the shear stiffness drives.
        this.shearStiffness = value;
    }

    /**
     * Ties the given particles to a Havok body, two-way: each particle is held on a point fixed in the body's frame
     * (a zero-length XPBD attachment), the rope pulls the body and the body pulls the rope, so a rope holds a crate
     * and a swinging crate drags the rope. A static or animated body only leads: the particles follow it. Each
     * particle keeps its place relative to the body, or, with `localAnchor` (in the body node's local space, scaling
     * included), is pulled onto that point. A particle tied again follows the later body. The attachment ends with
     * {@link detach}, when the body is disposed (one `Logger.Warn`) and when the impostor is disposed. The particles do
     * not collide with the body they are tied to. Not on the WebGPU solver.
     * @param vertexIndices - particles (= path points)
     * @param target - a Havok `PhysicsBody`, or a node that has one (`node.physicsBody`)
     * @param localAnchor - the point of the body to hold them on (node's local space, m); default where each is now
     * @throws Error when the target is null, disposed, or a node without a body; RangeError for an index out of range
     *   or an anchor that is not finite
     */
    public attachToBody(vertexIndices: ArrayLike<number>, target: PhysicsBody | TransformNode, localAnchor?: Vector3): void {
        const body = physicsBodyOf(target);
        if (localAnchor && !(Number.isFinite(localAnchor.x) && Number.isFinite(localAnchor.y) && Number.isFinite(localAnchor.z))) {
            throw new RangeError(`RopeImpostor.attachToBody: localAnchor must be finite, got ${localAnchor.toString()}`);
        }
        const particles = new Set<number>();
        for (let k = 0; k < vertexIndices.length; k++) {
            particles.add(this._particle(vertexIndices[k]));
        }
        const node = body.transformNode;
        const world = node.computeWorldMatrix(true);
        const origin = node.absolutePosition;
        Quaternion.InverseToRef(node.absoluteRotationQuaternion, this._inverseRotation);
        const list = Int32Array.from(particles);
        const anchors = new Float64Array(3 * list.length);
        const x = this.body.positions;
        const point = this._position;
        for (let k = 0; k < list.length; k++) {
            const i = 3 * list[k];
            if (localAnchor) {
                Vector3.TransformCoordinatesToRef(localAnchor, world, point);
            } else {
                point.set(x[i], x[i + 1], x[i + 2]);
            }
            // Into the body's frame (Havok's pose: the node's world position and rotation, without scaling).
            point.subtractInPlace(origin).rotateByQuaternionToRef(this._inverseRotation, point);
            anchors[3 * k] = point.x;
            anchors[3 * k + 1] = point.y;
            anchors[3 * k + 2] = point.z;
        }
        this._releaseAttachments(particles);
        const attachment: BodyAttachment = { body, particles: list, anchors, collider: null };
        this._attachments.push(attachment);
        // Known now unless the body joined Havok since the last step; else tied before the next step.
        this._tie(attachment, this.plugin.getColliderForBody(body));
        this.body.wake();
    }

    /** Unties the given particles from the body they were tied to by {@link attachToBody} (nothing for the others). */
    public detach(vertexIndices: ArrayLike<number>): void {
        const particles = new Set<number>();
        for (let k = 0; k < vertexIndices.length; k++) {
            particles.add(this._particle(vertexIndices[k]));
        }
        this._releaseAttachments(particles);
        this.body.wake();
    }

    /** The Havok body `particle` is tied to by {@link attachToBody}, or null. */
    public getAttachedBody(particle: number): Nullable<PhysicsBody> {
        for (const attachment of this._attachments) {
            if (attachment.particles.includes(particle)) {
                return attachment.body;
            }
        }
        return null;
    }

    /** Returns "RopeImpostor". */
    public getClassName(): string {
        return "RopeImpostor";
    }

    /**
     * Removes the rope from the simulation, unties it from its bodies and removes every observer it added; a mesh
     * the impostor created for a path is disposed, a mesh given keeps its last shape.
     */
    public override dispose(): void {
        if (this.isDisposed) {
            return;
        }
        this._releaseAttachments(null);
        super.dispose();
        if (this._ownsMesh) {
            this.mesh.dispose();
        }
    }

    /** Ties the particles to the colliders of their bodies, which the plugin has just synced with Havok. @internal */
    public override _afterCollidersSynced(): void {
        for (let a = this._attachments.length - 1; a >= 0; a--) {
            const attachment = this._attachments[a];
            const collider = attachment.body.isDisposed ? null : this.plugin.getColliderForBody(attachment.body);
            if (collider === null) {
                Logger.Warn(
                    `RopeImpostor: mesh "${this.mesh.name}" lets go of the physics body of "${attachment.body.transformNode.name}" ` +
                        `(${attachment.body.isDisposed ? "disposed" : "ignored by soft bodies"}): ${attachment.particles.length} particles are free`,
                );
                this._untie(attachment);
                this._attachments.splice(a, 1);
                this.body.wake();
            } else if (collider !== attachment.collider) {
                this._tie(attachment, collider);
            }
        }
    }

    protected _writeRenderPositions(out: Float64Array): void {
        out.set(this.body.positions.subarray(0, out.length));
    }

    protected _kindOptions(): Partial<SoftImpostorOptionValues> {
        return { bendStiffness: this.bendStiffness, radius: this.radius };
    }

    /** Attaches the particles of `attachment` to `collider` in the core (nothing while it is null). */
    private _tie(attachment: BodyAttachment, collider: Nullable<Collider>): void {
        attachment.collider = collider;
        if (collider === null) {
            return;
        }
        const { particles, anchors } = attachment;
        for (let k = 0; k < particles.length; k++) {
            this.body.attachments.attach(particles[k], collider, anchors[3 * k], anchors[3 * k + 1], anchors[3 * k + 2]);
        }
    }

    /** Detaches the particles of `attachment` in the core where they are still attached to its collider. */
    private _untie(attachment: BodyAttachment): void {
        const core = this.body.attachments;
        for (let k = 0; k < attachment.particles.length; k++) {
            const p = attachment.particles[k];
            if (attachment.collider !== null && core.colliders[p] === attachment.collider) {
                core.detach(p);
            }
        }
    }

    /** Unties `particles` (every particle for null) from their bodies, dropping the attachments left with none. */
    private _releaseAttachments(particles: Nullable<Set<number>>): void {
        for (let a = this._attachments.length - 1; a >= 0; a--) {
            const attachment = this._attachments[a];
            this._untie(attachment);
            const keep: number[] = [];
            const anchors: number[] = [];
            for (let k = 0; k < attachment.particles.length; k++) {
                if (particles !== null && !particles.has(attachment.particles[k])) {
                    keep.push(attachment.particles[k]);
                    anchors.push(attachment.anchors[3 * k], attachment.anchors[3 * k + 1], attachment.anchors[3 * k + 2]);
                }
            }
            if (keep.length === 0) {
                this._attachments.splice(a, 1);
                continue;
            }
            attachment.particles = Int32Array.from(keep);
            attachment.anchors = Float64Array.from(anchors);
            this._tie(attachment, attachment.collider);
        }
    }
}

/** A rope's path as read from its source: points (world, xyz), and the radius and render a mesh implies. */
interface RopeSource {
    points: Float64Array;
    radius?: number;
    render?: RopeRender;
}

/** The plugin a rope built from a path joins: `plugin`, else the one of the last scene created. */
function pathPlugin(plugin: XpbdPlugin | undefined): XpbdPlugin {
    const scene = EngineStore.LastCreatedScene;
    const found = plugin ?? (scene ? XpbdPlugin.FromScene(scene) : null);
    if (!found) {
        throw new Error("RopeImpostor: no XpbdPlugin to join; pass one (new RopeImpostor(path, options, xpbd))");
    }
    found._checkUsable("RopeImpostor");
    return found;
}

/** The points of a path given as vectors. */
function readPath(path: readonly Vector3[]): RopeSource {
    if (path.length < 2) {
        throw new RangeError(`RopeImpostor: a path needs at least 2 points, got ${path.length}`);
    }
    const points = new Float64Array(3 * path.length);
    for (let i = 0; i < path.length; i++) {
        const v = path[i];
        if (!v || !Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) {
            throw new RangeError(`RopeImpostor: path point ${i} is not a finite Vector3 (${String(v)})`);
        }
        points[3 * i] = v.x;
        points[3 * i + 1] = v.y;
        points[3 * i + 2] = v.z;
    }
    return { points };
}

/** What `CreateTube` keeps on its mesh (Babylon's creation data). */
interface TubeCreationData {
    path3D?: { getCurve(): Vector3[] };
    radius?: number;
}

/** The path (world) of a mesh made by `CreateTube` or `CreateLines`, with its radius (tube) and render kind. */
function readRopeMesh(mesh: Mesh): RopeSource {
    if (!mesh || mesh.isDisposed()) {
        throw new Error(`RopeImpostor: mesh "${mesh?.name}" is disposed`);
    }
    const physicsBody = (mesh as { physicsBody?: Nullable<PhysicsBody> }).physicsBody;
    if (physicsBody && !physicsBody.isDisposed) {
        throw new Error(`RopeImpostor: mesh "${mesh.name}" already has a Havok physics body (mesh.physicsBody); dispose it first`);
    }
    const world = mesh.computeWorldMatrix(true);
    const tube = (mesh as unknown as { _creationDataStorage?: TubeCreationData })._creationDataStorage;
    let local: Vector3[];
    let render: RopeRender;
    if (mesh.getClassName() === "LinesMesh") {
        const positions = mesh.getVerticesData(VertexBuffer.PositionKind) ?? [];
        local = [];
        for (let i = 0; i + 2 < positions.length; i += 3) {
            local.push(new Vector3(positions[i], positions[i + 1], positions[i + 2]));
        }
        render = "lines";
    } else if (tube?.path3D) {
        local = tube.path3D.getCurve();
        render = "tube";
    } else {
        throw new Error(
            `RopeImpostor: mesh "${mesh.name}" was not made by CreateTube or CreateLines, so it has no path to follow; pass the path instead`,
        );
    }
    const source = readPath(local.map((v) => Vector3.TransformCoordinates(v, world)));
    return { points: source.points, render, radius: render === "tube" ? tube?.radius : undefined };
}

/** The tube or lines drawn for a rope built from a path (world frame, updatable). */
function createRopeMesh(plugin: XpbdPlugin, positions: Float64Array, radius: number, render: RopeRender): Mesh {
    const path: Vector3[] = [];
    for (let i = 0; i < positions.length; i += 3) {
        path.push(new Vector3(positions[i], positions[i + 1], positions[i + 2]));
    }
    return render === "tube"
        ? CreateTube("rope", { path, radius, tessellation: TUBE_TESSELLATION, cap: Mesh.CAP_ALL, updatable: true }, plugin.scene)
        : CreateLines("rope", { points: path, updatable: true }, plugin.scene);
}

/** The Havok body of an attachment target, checked. */
function physicsBodyOf(target: PhysicsBody | TransformNode): PhysicsBody {
    if (!target) {
        throw new Error(
            `RopeImpostor.attachToBody: target is ${target === null ? "null" : "undefined"} (a PhysicsBody or a node with one is required)`,
        );
    }
    const body = target instanceof PhysicsBody ? target : target.physicsBody;
    if (!body) {
        throw new Error(`RopeImpostor.attachToBody: node "${(target as TransformNode).name}" has no physics body`);
    }
    if (body.isDisposed) {
        throw new Error(`RopeImpostor.attachToBody: the physics body of "${body.transformNode.name}" is disposed`);
    }
    return body;
}
