import { closestPointOnTriangle } from "./closestPointOnTriangle.js";
import { ContactKind } from "./contactKind.js";
import { enclosedVolume } from "./enclosedVolume.js";
import { particleHeld } from "./heldContacts.js";
import { ParticleHash } from "./particleHash.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** `element` of the `CapacityExceeded` event when a substep found more soft contact candidates than it holds. */
export const SOFT_CONTACT_CAPACITY_ELEMENT = 3;

/**
 * Slots of `SoftContacts._scratch`: the numbers that cross calls travel there (a number argument or result of a call
 * the JIT does not inline is boxed on the heap, and these calls run per candidate).
 */
const W_P = 0; // the particle's inverse mass in the contact, then the corners' times their weights: K_A, K_B, K_C
const K_A = 1;
const K_B = 2;
const K_C = 3;
const LAMBDA = 4; // the correction's multiplier (m per unit of inverse mass)
const DENOMINATOR = 5; // the generalised inverse mass of the contact
const DEPTH = 6; // how far inside the contact distance
const INV_H = 7; // 1 / substep
const CONTACT_DISTANCE = 8;
const NEAR = 9; // the start distance within which a candidate's side is known
const REACH = 10; // how far a triangle's query box reaches
const MARGIN = 11; // how far a particle's motion may be from a triangle's box, and a body's bounds are grown
const MOVE = 12; // a body's largest motion over the substep, or its largest speed
const ROOM_P = 13; // how far the particle, then each corner (ROOM_A, ROOM_B, ROOM_C), may move along its push before its tethers hold it
const ROOM_A = 14;
const ROOM_B = 15;
const ROOM_C = 16;
const APPROACH = 17; // how fast the contact's two sides approach each other along its normal (m/s)

/**
 * Relative speed (m/s) of two bodies' centres of mass from which they are in an impact, and of a contact's two sides
 * from which a contact in an impact yields (see {@link SoftContacts}).
 */
const IMPACT_SPEED = 0.5;
/** Relative speed (m/s) of two bodies' centres of mass under which an impact between them is over. */
const IMPACT_END_SPEED = 0.05;
/** Tether room (m) under which a triangle's corners count as held (see {@link SoftContacts}). */
const HELD_ROOM = 1e-4;

/** Widest query box of one triangle, in cells per axis; a wider one (a runaway body) is skipped for the substep. */
const MAX_CELL_SPAN = 16;

/**
 * Contacts between soft bodies, and of a body with itself: every surface particle is kept a contact distance away
 * from the surface triangles of the other bodies (and, with `SoftBody.selfCollision`, of its own). Candidates are
 * found every substep from the predicted motion with a spatial hash of the particles (`ParticleHash`), and
 * solved after every pass of the bodies' constraints.
 *
 * - The contact distance of a pair is the mean of the two bodies' thicknesses (a body's own thickness for itself).
 * - Which side of a triangle a particle belongs on is where it was at the start of the substep, when it started within
 *   two contact distances of it or over its face (cloth has no inside; farther away beyond an edge of a curved surface,
 *   the triangle's plane says little, and the particle belongs where it is). One that crossed within the substep goes back across the
 *   triangle's plane, also when it crossed by an edge or corner inside the surface; on the surface's border the
 *   contact only keeps the distance, so a particle may pass round a free edge.
 * - A correction moves the particle and the triangle's corners by their inverse masses and the barycentric weights of
 *   the closest point, so momentum is conserved exactly between free particles.
 * - Friction is positional, static then kinetic, on the relative slip over the substep, with the geometric means of
 *   the two bodies' coefficients (as against colliders). Soft contacts do not bounce.
 * - Heavy on light: each side of a contact moves along its push only as far as its taut tethers let it (see
 *   `TetherConstraints.room`), and the other side closes the rest, so a particle held by its tethers is as firm as
 *   the pins behind it and they take the load (a 0.5 kg hammock holds a 50 kg jelly, as the held solve against
 *   colliders holds a crate). A particle resting on a triangle whose corners are all held keeps no velocity away from
 *   it beyond the pins' own ({@link settle}), and its friction is measured against the pins' motion.
 * - Impacts yield: two bodies whose centres of mass meet faster than `IMPACT_SPEED` (0.5 m/s) are in an impact until
 *   they move together (slower than `IMPACT_END_SPEED`, 0.05 m/s, relative to each other). Meanwhile a contact whose
 *   sides approach faster than `IMPACT_SPEED` moves both sides by their inverse masses, and a tether-held
 *   particle is firm only while it does not move into the contact faster than its body's sleep speed. A held
 *   support would stop the body's surface dead and give its elastic energy back as a bounce (a 2 kg jelly dropped
 *   1 m onto the held hammock jumped off it); yielding, the cloth takes the impact as real cloth does.
 * - A closed body (one with tetrahedra) lies on one side of a sheet: a contact between the two that would push the
 *   closed body's surface away from its own centre of mass is skipped (its particle is on the wrong side, and goes
 *   back with the rest of its body), and a particle that starts behind a closed body's face, over it, makes no
 *   contact with that face.
 * - A sleeping body is an obstacle that does not move; a body moving fast near it wakes it (see {@link wakeNear}).
 *
 * Only bodies with triangles take part: a cloth with all its particles, a tetrahedral body with the corners of its
 * surface triangles. A particle of a body's own that lies within the contact distance of a triangle at rest never
 * contacts it (the triangle's corners, and the neighbours of a fine mesh).
 */
export class SoftContacts {
    /** Whether bodies collide with each other (`XpbdWorldOptions.softContacts`); self-collision is per body. */
    public readonly enabled: boolean;
    /** Candidates in the current substep. */
    public count = 0;
    /** Candidates that touched in a pass of the current (after a step: the last) substep. */
    public touching = 0;
    /** Set when a substep found more candidates than {@link capacity}; the rest were dropped. */
    public overflowed = false;
    private _particleBody: Int32Array;
    private _particle: Int32Array;
    private _triangleBody: Int32Array;
    private _triangle: Int32Array;
    /** Side of each candidate's triangle its particle belongs on: +1 along `(b − a) × (c − a)`, −1 against. */
    private _side: Int8Array;
    /** Per candidate: 1 once it touched in a pass of the current substep. */
    private _touchedInSubstep: Uint8Array;
    /**
     * Per candidate: 1 when, in the last pass it touched in, every corner of its triangle that weighs in the contact
     * was held by its taut tethers and its particle was free (see {@link settle}).
     */
    private _heldSupport: Uint8Array;
    /** Per candidate: the contact normal of the last pass it touched in (read by `_writeContacts` and `settle`). */
    private _contactNormals: Float64Array;
    private _hash = new ParticleHash(0);
    private _entryBody = new Int32Array(0);
    private _entryParticle = new Int32Array(0);
    /** Per hash entry: the particle's swept box over the substep, min xyz then max xyz. */
    private _entryBox = new Float64Array(0);
    /** Per body slot: the particles that take part (its surface), or null for all of them. */
    private _surfaces: (Int32Array | null)[] = [];
    /** Per body slot: +1 when `(b − a) × (c − a)` of its triangles points out of its closed surface, −1 when in, 0 for a sheet. */
    private _closed = new Int8Array(0);
    /** Per body slot: the centre of mass at the substep's start, then its velocity (xyz each, 0 asleep). */
    private _centres = new Float64Array(0);
    /** Per ordered pair of body slots (`i × bodies + j`): 1 while the two are in an impact. */
    private _impact = new Uint8Array(0);
    /** Per body slot: swept bounds of the substep, min xyz then max xyz. */
    private _bounds = new Float64Array(0);
    /** Per pair of body slots (`i × bodies + j`): whether it may touch this substep. */
    private _pairs = new Uint8Array(0);
    /** Per pair of body slots: whether they touched in the current step (see {@link islandReady}). */
    private _touched = new Uint8Array(0);
    /** Per body slot: whether {@link islandReady} reached it. */
    private _islandSeen = new Uint8Array(0);
    /** Body slots {@link islandReady} reached, in the order it reached them. */
    private _islandQueue = new Int32Array(0);
    /** Per body slot: whether any of its pairs may touch. */
    private _active = new Uint8Array(0);
    private _cellSize = 1;
    /**
     * Per body slot: thickness, static and kinetic friction, copied at the start of each substep's search. The loops
     * read them per candidate, from bodies of different shapes; read from the objects there, V8's generic loads box
     * the results.
     */
    private _materials = new Float64Array(0);
    /**
     * Per body slot: per triangle, bit k set when its edge k (a–b, b–c, c–a) is shared with another triangle; null for
     * a body without triangles, or one that tears (its border moves: every edge counts as border).
     */
    private _interior: (Uint8Array | null)[] = [];
    /**
     * Per body slot: the least rest distance of one of its surface particles to a triangle it is not a corner of, up to
     * a cell (Infinity for a body without triangles): self-collision checks the rest distance of its pairs only when
     * the thickness reaches it.
     */
    private _restGap = new Float64Array(0);
    private readonly _query = new Float64Array(3);
    private readonly _closest = new Float64Array(7);
    private readonly _normal = new Float64Array(3);
    private readonly _push = new Float64Array(3);
    /** Numbers crossing calls, by the slots `W_P` … `APPROACH`. */
    private readonly _scratch = new Float64Array(18);
    private readonly _basis = new Float64Array(13);

    /**
     * @param capacity - most candidates one substep holds
     * @param enabled - see {@link SoftContacts.enabled}
     */
    public constructor(
        public readonly capacity: number,
        enabled: boolean,
    ) {
        this.enabled = enabled;
        // The candidate lists are allocated when the first body with triangles arrives (see `attach`).
        this._particleBody = new Int32Array(0);
        this._particle = new Int32Array(0);
        this._triangleBody = new Int32Array(0);
        this._triangle = new Int32Array(0);
        this._side = new Int8Array(0);
        this._touchedInSubstep = new Uint8Array(0);
        this._heldSupport = new Uint8Array(0);
        this._contactNormals = new Float64Array(0);
    }

    /** Sizes everything for the world's bodies; called whenever one is added or removed (outside the step). */
    public attach(bodies: readonly SoftBody[]): void {
        const n = bodies.length;
        this._surfaces = bodies.map(surfaceParticles);
        this._interior = bodies.map(interiorEdges);
        let entries = 0;
        let edgeSum = 0;
        let edgeCount = 0;
        for (let i = 0; i < n; i++) {
            const body = bodies[i];
            if (body.triangles.length === 0) {
                continue;
            }
            entries += this._surfaces[i]?.length ?? body.particleCapacity;
            const rest = body.restPositions;
            const tri = body.triangles;
            for (let t = 0; t < tri.length; t += 3) {
                edgeSum += distance(rest, tri[t], tri[t + 1]) + distance(rest, tri[t + 1], tri[t + 2]) + distance(rest, tri[t + 2], tri[t]);
                edgeCount += 3;
            }
        }
        // About one triangle edge: a triangle's box then spans a few cells, each holding about one particle of a sheet.
        this._cellSize = edgeCount > 0 && edgeSum > 0 ? edgeSum / edgeCount : 1;
        if (entries > this._hash.capacity) {
            this._hash = new ParticleHash(entries);
            this._entryBody = new Int32Array(entries);
            this._entryParticle = new Int32Array(entries);
            this._entryBox = new Float64Array(6 * entries);
        }
        if (entries > 0 && this._particle.length === 0) {
            this._particleBody = new Int32Array(this.capacity);
            this._particle = new Int32Array(this.capacity);
            this._triangleBody = new Int32Array(this.capacity);
            this._triangle = new Int32Array(this.capacity);
            this._side = new Int8Array(this.capacity);
            this._touchedInSubstep = new Uint8Array(this.capacity);
            this._heldSupport = new Uint8Array(this.capacity);
            this._contactNormals = new Float64Array(3 * this.capacity);
        }
        // The candidates name body slots, which change now: the last step's contacts are gone.
        this.touching = 0;
        this._bounds = new Float64Array(6 * n);
        this._pairs = new Uint8Array(n * n);
        this._touched = new Uint8Array(n * n);
        this._islandSeen = new Uint8Array(n);
        this._islandQueue = new Int32Array(n);
        this._materials = new Float64Array(3 * n);
        this._active = new Uint8Array(n);
        this._restGap = Float64Array.from(bodies, (body) => restGap(body, this._cellSize));
        // A closed surface's enclosed volume is positive at rest when its triangles wind outwards.
        this._closed = Int8Array.from(bodies, (body, i) =>
            this._surfaces[i] !== null ? Math.sign(enclosedVolume(body.triangles, body.restPositions)) : 0,
        );
        this._centres = new Float64Array(6 * n);
        this._impact = new Uint8Array(n * n);
    }

    /**
     * At the start of a step: forgets which bodies touched in the last step (see {@link islandReady}), and wakes
     * every sleeping body that an awake one not ready to sleep may reach within the step (`dt` from
     * the context), as a collider moving near it does.
     */
    public wakeNear(bodies: readonly SoftBody[], context: SubstepContext): void {
        // Here, the one call of every step.
        this._touched.fill(0);
        if (!this.enabled) {
            return;
        }
        const n = bodies.length;
        let anySleeping = false;
        for (let i = 0; i < n; i++) {
            anySleeping = anySleeping || (bodies[i].sleeping && bodies[i].triangles.length > 0);
        }
        if (!anySleeping) {
            return;
        }
        const bounds = this._bounds;
        for (let i = 0; i < n; i++) {
            const body = bodies[i];
            // A moving body's bounds grow by its reach over the step; a sleeping one's stay as they are.
            const c = this._scratch;
            c[MOVE] = 0;
            if (!body.sleeping) {
                maxSpeed(body, this._surfaces[i], c);
            }
            c[MARGIN] = c[MOVE] * context.dt + body.thickness;
            bodyBounds(body, this._surfaces[i], body.positions, body.positions, bounds, i, c);
        }
        for (let s = 0; s < n; s++) {
            const sleeper = bodies[s];
            if (!sleeper.sleeping || sleeper.triangles.length === 0) {
                continue;
            }
            for (let a = 0; a < n; a++) {
                const mover = bodies[a];
                // Not only a moving body: one just woken under a sleeper (a hammock a second jelly landed in, the first
                // asleep in it) must carry the sleeper's weight again. One ready to sleep lets it sleep.
                if (!mover.sleeping && !readyToSleep(mover) && pairAllowed(mover, sleeper) && overlaps(bounds, a, s)) {
                    sleeper._wakeRequested = true;
                    break;
                }
            }
        }
    }

    /**
     * Finds the substep's candidates, after every awake body predicted its positions (`previousPositions` hold the
     * substep's start).
     */
    public find(bodies: readonly SoftBody[]): void {
        this.count = 0;
        this.touching = 0;
        const n = bodies.length;
        if (this._particle.length === 0) {
            return;
        }
        const bounds = this._bounds;
        const surfaces = this._surfaces;
        let maxMove = 0;
        let maxThickness = 0;
        for (let i = 0; i < n; i++) {
            const body = bodies[i];
            // A body with no possible pair needs no bounds (a lone cloth without self-collision: the benchmark's).
            if (body.triangles.length === 0 || !this._mayPair(bodies, i)) {
                bounds[6 * i] = Infinity;
                continue;
            }
            const start = body.sleeping ? body.positions : body.previousPositions;
            this._materials[3 * i] = body.thickness;
            this._materials[3 * i + 1] = body.staticFriction;
            this._materials[3 * i + 2] = body.kineticFriction;
            this._scratch[MARGIN] = body.thickness;
            bodyBounds(body, surfaces[i], start, body.positions, bounds, i, this._scratch);
            maxMove = Math.max(maxMove, this._scratch[MOVE]);
            maxThickness = Math.max(maxThickness, body.thickness);
        }
        const pairs = this._pairs;
        const active = this._active;
        active.fill(0);
        let any = false;
        for (let i = 0; i < n; i++) {
            const a = bodies[i];
            for (let j = i; j < n; j++) {
                const b = bodies[j];
                let touch = false;
                if (bounds[6 * i] !== Infinity && bounds[6 * j] !== Infinity) {
                    touch =
                        i === j
                            ? a.selfCollision && !a.sleeping
                            : this.enabled && !(a.sleeping && b.sleeping) && pairAllowed(a, b) && overlaps(bounds, i, j);
                }
                pairs[i * n + j] = pairs[j * n + i] = touch ? 1 : 0;
                if (touch) {
                    active[i] = active[j] = 1;
                    any = true;
                }
            }
        }
        if (!any) {
            return;
        }
        const hash = this._hash;
        hash.clear();
        hash.cellSize = this._cellSize;
        for (let i = 0; i < n; i++) {
            if (active[i] === 1) {
                this._insert(bodies[i], i, surfaces[i]);
            }
        }
        hash.build();
        this._updateImpacts(bodies);
        // A particle is hashed at the middle of its motion, so a triangle's box reaches half the largest motion
        // further, and a contact distance and a half more (the half for the motion the solve adds to the prediction).
        this._scratch[REACH] = 0.5 * maxMove + 1.5 * maxThickness;
        // The particle's own motion must come within a thickness and a half of the triangle's swept box.
        this._scratch[MARGIN] = 1.5 * maxThickness;
        for (let j = 0; j < n; j++) {
            if (active[j] === 1) {
                this._queryTriangles(bodies, j);
            }
        }
    }

    /**
     * The active bodies' centres of mass and velocities at the substep's start, and from them which pairs that may
     * touch are in an impact (see {@link SoftContacts}).
     */
    private _updateImpacts(bodies: readonly SoftBody[]): void {
        const n = bodies.length;
        const centres = this._centres;
        for (let i = 0; i < n; i++) {
            if (this._active[i] === 1) {
                centreOfMass(bodies[i], centres, 6 * i);
            }
        }
        for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
                if (i === j || this._pairs[i * n + j] === 0) {
                    continue;
                }
                const dx = centres[6 * i + 3] - centres[6 * j + 3];
                const dy = centres[6 * i + 4] - centres[6 * j + 4];
                const dz = centres[6 * i + 5] - centres[6 * j + 5];
                const speed = Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (speed > IMPACT_SPEED) {
                    this._impact[i * n + j] = 1;
                } else if (speed < IMPACT_END_SPEED) {
                    this._impact[i * n + j] = 0;
                }
            }
        }
    }

    /** Whether body `i` may be in a pair this substep: with itself, or with another body (bounds aside). */
    private _mayPair(bodies: readonly SoftBody[], i: number): boolean {
        const a = bodies[i];
        if (a.selfCollision && !a.sleeping) {
            return true;
        }
        if (!this.enabled) {
            return false;
        }
        for (let j = 0; j < bodies.length; j++) {
            const b = bodies[j];
            if (j !== i && b.triangles.length > 0 && !(a.sleeping && b.sleeping) && pairAllowed(a, b)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One pass over the candidates (after a pass over every body's constraints); a candidate touching for the first
     * time in the substep counts in {@link touching}.
     */
    public project(bodies: readonly SoftBody[], context: SubstepContext): void {
        const closest = this._closest;
        const query = this._query;
        const normal = this._normal;
        const c = this._scratch;
        c[INV_H] = context.invH;
        let touching = 0;
        for (let k = 0; k < this.count; k++) {
            const a = bodies[this._particleBody[k]];
            const b = bodies[this._triangleBody[k]];
            const p = this._particle[k];
            const t = this._triangle[k];
            const tri = b.triangles;
            const ia = 3 * tri[t];
            const ib = 3 * tri[t + 1];
            const ic = 3 * tri[t + 2];
            const ip = 3 * p;
            const xa = a.positions;
            const xb = b.positions;
            query[0] = xa[ip];
            query[1] = xa[ip + 1];
            query[2] = xa[ip + 2];
            closestPointOnTriangle(xb, ia, ib, ic, query, closest);
            const same = a === b;
            const materials = this._materials;
            const ma = 3 * this._particleBody[k];
            const mb = 3 * this._triangleBody[k];
            const contactDistance = same ? materials[ma] : 0.5 * (materials[ma] + materials[mb]);
            c[CONTACT_DISTANCE] = contactDistance;
            const interior = this._interior[this._triangleBody[k]];
            // A closed body's surface bounds a solid: beyond the plane of one of its faces, by an edge, another
            // body's particle is mostly outside it, beside the next face (a cloth under a jelly's bottom edge is behind
            // the plane of its side face), so it did not cross there. The inside rule and the wrong-side test catch
            // a particle inside.
            const crossing = same || this._closed[this._triangleBody[k]] === 0;
            if (!this._contactNormal(xb, tri, t, this._side[k], interior !== null && crossing ? interior[t / 3] : 0)) {
                continue;
            }
            const depth =
                contactDistance -
                normal[0] * (query[0] - closest[0]) -
                normal[1] * (query[1] - closest[1]) -
                normal[2] * (query[2] - closest[2]);
            if (!(depth > 0)) {
                continue;
            }
            const pb = this._particleBody[k];
            const tb = this._triangleBody[k];
            if (!same && this._wrongSide(pb, tb, a, ip, b, ia, ib, ic)) {
                continue;
            }
            let impact = false;
            if (!same && this._impact[pb * bodies.length + tb] === 1) {
                this._approach(a, ip, b, ia, ib, ic);
                impact = c[APPROACH] > IMPACT_SPEED;
            }
            this._movable(a, p, 1, W_P, impact);
            this._movable(b, tri[t], -1, K_A, impact);
            this._movable(b, tri[t + 1], -1, K_B, impact);
            this._movable(b, tri[t + 2], -1, K_C, impact);
            const held =
                c[W_P] > 0 &&
                !b.sleeping &&
                (impact
                    ? (closest[4] === 0 || c[K_A] === 0) && (closest[5] === 0 || c[K_B] === 0) && (closest[6] === 0 || c[K_C] === 0)
                    : c[ROOM_A] * closest[4] + c[ROOM_B] * closest[5] + c[ROOM_C] * closest[6] < HELD_ROOM);
            c[K_A] *= closest[4];
            c[K_B] *= closest[5];
            c[K_C] *= closest[6];
            const wp = c[W_P];
            const denominator = wp + c[K_A] * closest[4] + c[K_B] * closest[5] + c[K_C] * closest[6];
            if (denominator === 0) {
                continue;
            }
            if (this._touchedInSubstep[k] === 0) {
                this._touchedInSubstep[k] = 1;
                touching++;
            }
            this._heldSupport[k] = held ? 1 : 0;
            // Kept for `_writeContacts` and `settle` (friction reuses `normal`).
            this._contactNormals[3 * k] = normal[0];
            this._contactNormals[3 * k + 1] = normal[1];
            this._contactNormals[3 * k + 2] = normal[2];
            this._touched[pb * bodies.length + tb] = 1;
            c[DENOMINATOR] = denominator;
            c[DEPTH] = depth;
            if (impact) {
                c[LAMBDA] = depth / denominator;
            } else {
                this._clampToRoom(xa, ip, xb, ia, ib, ic);
            }
            const lambda = c[LAMBDA];
            if (!(lambda > 0)) {
                continue;
            }
            moveContact(xa, ip, xb, ia, ib, ic, c, normal);
            addImpulse(a, b, p, ia, ib, ic, closest, c, normal);
            if (wp * lambda > a.contactResidual[p]) {
                a.contactResidual[p] = wp * lambda;
            }
            this._friction(a, b, p, ia, ib, ic, ma, mb, held && !impact);
        }
        this.touching += touching;
    }

    /**
     * The number of contacts that touched in the last substep of the last step, of body slot `slot` (as particle or as
     * triangle) or of every body (−1). @internal
     */
    public _countContacts(slot: number): number {
        if (slot < 0) {
            return this.touching;
        }
        let count = 0;
        for (let k = 0; k < this.count; k++) {
            if (this._touchedInSubstep[k] === 1 && (this._particleBody[k] === slot || this._triangleBody[k] === slot)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Writes the contacts that touched in the last substep of the last step, of body slot `slot` (as particle or as
     * triangle) or of every body (−1), into slots `start` … `end − 1` of the output (as many as fit), and returns the
     * next free slot: the point of the triangle closest to the particle now, the normal the solve pushed the particle
     * along (away from the triangle), and {@link ContactKind.Soft} or {@link ContactKind.Self}. @internal
     */
    public _writeContacts(
        bodies: readonly SoftBody[],
        slot: number,
        points: Float32Array | Float64Array,
        normals: Float32Array | Float64Array,
        kinds: Uint8Array,
        start: number,
        end: number,
    ): number {
        const query = this._query;
        const closest = this._closest;
        let out = start;
        for (let k = 0; k < this.count && out < end; k++) {
            if (this._touchedInSubstep[k] === 0) {
                continue;
            }
            const particleBody = this._particleBody[k];
            const triangleBody = this._triangleBody[k];
            if (slot >= 0 && particleBody !== slot && triangleBody !== slot) {
                continue;
            }
            const xp = bodies[particleBody].positions;
            const ip = 3 * this._particle[k];
            query[0] = xp[ip];
            query[1] = xp[ip + 1];
            query[2] = xp[ip + 2];
            const tri = bodies[triangleBody].triangles;
            const t = this._triangle[k];
            closestPointOnTriangle(bodies[triangleBody].positions, 3 * tri[t], 3 * tri[t + 1], 3 * tri[t + 2], query, closest);
            const o = 3 * out;
            for (let a = 0; a < 3; a++) {
                points[o + a] = closest[a];
                normals[o + a] = this._contactNormals[3 * k + a];
            }
            kinds[out] = particleBody === triangleBody ? ContactKind.Self : ContactKind.Soft;
            out++;
        }
        return out;
    }

    /**
     * The inverse mass particle `p` of `body` takes in a contact that pushes it along `sign` × the contact normal, into
     * `_scratch[slot]` (0 when the body sleeps), and how far it may move along the push before its tethers hold it,
     * into the matching room slot (Infinity without tethers). In an impact (see {@link SoftContacts}) the room is
     * Infinity, and the inverse mass is 0 when its taut tethers hold the particle against the push while it does not
     * move into the contact faster than its body's sleep speed.
     */
    private _movable(body: SoftBody, p: number, sign: number, slot: number, impact: boolean): void {
        const w = body.inverseMasses[p];
        let movable = !body.sleeping && w > 0;
        const roomSlot = slot + ROOM_P - W_P;
        this._scratch[roomSlot] = Infinity;
        if (movable && body.tethers.enabled && body.tethers.count > 0) {
            const push = this._push;
            push[0] = sign * this._normal[0];
            push[1] = sign * this._normal[1];
            push[2] = sign * this._normal[2];
            if (impact) {
                const v = body.velocities;
                const k = 3 * p;
                // Held only while it does not move into the contact faster than its body's sleep speed: a taut cloth
                // springing back up under a jelly would otherwise be a wall of infinite mass that lifts the jelly
                // without being slowed by it. The speed is the substep's start velocity: the motion within the pass
                // flickers at rest.
                const into = -(v[k] * push[0] + v[k + 1] * push[1] + v[k + 2] * push[2]);
                movable = into > body.sleepVelocity || !particleHeld(body, p, push, this._basis);
            } else {
                body.tethers.room(body.positions, p, push, this._scratch, roomSlot);
            }
        }
        this._scratch[slot] = movable ? w : 0;
    }

    /**
     * Whether a contact between a closed body and a sheet (the particle at `ip` of body `a` in slot `pb`, the triangle at
     * `ia`, `ib`, `ic` of body `b` in slot `tb`, the contact normal in {@link _normal}) would push the closed body's side
     * away from its centre of mass: its particle is on the wrong side of the sheet. The push is measured along the
     * triangle's plane normal and from where the closed side started the substep: the contact's own corrections then do
     * not change the answer within the substep (measured from where they moved it, along the edge-contact normal, a
     * corner of a 20 kg jelly on the hammock flipped between touching and not, jittering at 1–3 m/s).
     */
    private _wrongSide(pb: number, tb: number, a: SoftBody, ip: number, b: SoftBody, ia: number, ib: number, ic: number): boolean {
        const closedParticle = this._closed[pb] !== 0;
        if (closedParticle === (this._closed[tb] !== 0)) {
            return false;
        }
        const face = this._push;
        triangleNormal(b.positions, ia, ib, ic, face);
        const normal = this._normal;
        const sign = face[0] * normal[0] + face[1] * normal[1] + face[2] * normal[2] >= 0 ? 1 : -1;
        const centres = this._centres;
        const o = 6 * (closedParticle ? pb : tb);
        const closest = this._closest;
        const xa = a.sleeping ? a.positions : a.previousPositions;
        const xb = b.sleeping ? b.positions : b.previousPositions;
        let toward = 0;
        for (let d = 0; d < 3; d++) {
            const start = closedParticle ? xa[ip + d] : closest[4] * xb[ia + d] + closest[5] * xb[ib + d] + closest[6] * xb[ic + d];
            toward += face[d] * (centres[o + d] - start);
        }
        // The closed side is pushed along the normal when it is the particle, against it when it is the triangle.
        return (closedParticle ? sign : -sign) * toward <= 0 || !(toward === toward);
    }

    /**
     * How fast (m/s) the particle at `ip` of body `a` and the closest point of the triangle at `ia`, `ib`, `ic` of body
     * `b` approach each other along the contact normal, at the substep's start velocities, into `_scratch[APPROACH]`.
     */
    private _approach(a: SoftBody, ip: number, b: SoftBody, ia: number, ib: number, ic: number): void {
        const va = a.velocities;
        const vb = b.velocities;
        const closest = this._closest;
        const normal = this._normal;
        let separating = 0;
        for (let d = 0; d < 3; d++) {
            separating += normal[d] * (va[ip + d] - closest[4] * vb[ia + d] - closest[5] * vb[ib + d] - closest[6] * vb[ic + d]);
        }
        this._scratch[APPROACH] = -separating;
    }

    /**
     * The contact's multiplier when each side moves along its push only as far as its tethers let it (the rooms in
     * `_scratch`): a side that would move farther moves to its limit now and holds, and the others close the rest.
     * Reads the depth from `DEPTH`; leaves the weights of the sides still free in `_scratch` (`W_P`, `K_A` …), their
     * generalised inverse mass in `DENOMINATOR` and the multiplier in `LAMBDA` (0 when nothing is left free).
     */
    private _clampToRoom(xa: Float64Array, ip: number, xb: Float64Array, ia: number, ib: number, ic: number): void {
        const c = this._scratch;
        const closest = this._closest;
        const normal = this._normal;
        let left = c[DEPTH];
        c[LAMBDA] = 0;
        // Each round holds at least one more side; four sides, so a fifth round only computes what is left.
        for (let round = 0; round < 4; round++) {
            const denominator = c[W_P] + c[K_A] * closest[4] + c[K_B] * closest[5] + c[K_C] * closest[6];
            c[DENOMINATOR] = denominator;
            if (!(denominator > 0) || !(left > 0)) {
                return;
            }
            const lambda = left / denominator;
            let clamped = false;
            if (c[W_P] * lambda > c[ROOM_P]) {
                const r = c[ROOM_P];
                xa[ip] += r * normal[0];
                xa[ip + 1] += r * normal[1];
                xa[ip + 2] += r * normal[2];
                left -= r;
                c[W_P] = 0;
                clamped = true;
            }
            for (let corner = 0; corner < 3; corner++) {
                const slot = K_A + corner;
                // A corner moves by its weighted inverse mass times λ: kᵢ λ = wᵢ bᵢ λ, and closes bᵢ of what it moves.
                if (c[slot] * lambda > c[ROOM_A + corner]) {
                    const r = c[ROOM_A + corner];
                    const o = corner === 0 ? ia : corner === 1 ? ib : ic;
                    xb[o] -= r * normal[0];
                    xb[o + 1] -= r * normal[1];
                    xb[o + 2] -= r * normal[2];
                    left -= closest[4 + corner] * r;
                    c[slot] = 0;
                    clamped = true;
                }
            }
            if (!clamped) {
                c[LAMBDA] = lambda;
                return;
            }
        }
        const denominator = c[W_P] + c[K_A] * closest[4] + c[K_B] * closest[5] + c[K_C] * closest[6];
        c[DENOMINATOR] = denominator;
        c[LAMBDA] = denominator > 0 && left > 0 ? left / denominator : 0;
    }

    /**
     * After the substep's velocities: a particle resting on a held support (every corner of the triangle held by its
     * taut tethers) keeps no velocity away from it beyond the pins' own. The support moves only by the cloth's
     * corrections, and as a wall of infinite mass it would hand each one to the body on it as a kick; as the ground
     * does, the contact does not throw. The impulse taken back goes through the tethers to the pins.
     */
    public settle(bodies: readonly SoftBody[]): void {
        for (let k = 0; k < this.count; k++) {
            if (this._touchedInSubstep[k] === 0 || this._heldSupport[k] === 0) {
                continue;
            }
            const a = bodies[this._particleBody[k]];
            const b = bodies[this._triangleBody[k]];
            const ip = 3 * this._particle[k];
            const t = this._triangle[k];
            const tri = b.triangles;
            const v = a.velocities;
            const u = b.velocities;
            const nx = this._contactNormals[3 * k];
            const ny = this._contactNormals[3 * k + 1];
            const nz = this._contactNormals[3 * k + 2];
            const ja = 3 * b.tethers.firstAnchor(tri[t]);
            const jb = 3 * b.tethers.firstAnchor(tri[t + 1]);
            const jc = 3 * b.tethers.firstAnchor(tri[t + 2]);
            const support =
                ((u[ja] + u[jb] + u[jc]) * nx + (u[ja + 1] + u[jb + 1] + u[jc + 1]) * ny + (u[ja + 2] + u[jb + 2] + u[jc + 2]) * nz) / 3;
            const away = v[ip] * nx + v[ip + 1] * ny + v[ip + 2] * nz - support;
            if (!(away > 0)) {
                continue;
            }
            v[ip] -= away * nx;
            v[ip + 1] -= away * ny;
            v[ip + 2] -= away * nz;
            const j = a.masses[ip / 3] * away;
            const ia = a.contacts.impulse;
            const ib = b.contacts.impulse;
            ia[0] -= j * nx;
            ia[1] -= j * ny;
            ia[2] -= j * nz;
            ib[0] += j * nx;
            ib[1] += j * ny;
            ib[2] += j * nz;
        }
    }

    /**
     * Whether every awake body that body slot `b` reaches through this step's contacts (its partners, their partners
     * and so on) is ready to sleep (`readyToSleep`): then it may fall asleep with them. A body that slept while a body
     * it rests on stayed awake would stop loading it (a jelly asleep in a hammock that a second jelly keeps awake: the
     * pins carried the hammock and the second jelly only).
     */
    public islandReady(bodies: readonly SoftBody[], b: number): boolean {
        const n = bodies.length;
        const seen = this._islandSeen;
        const queue = this._islandQueue;
        seen.fill(0);
        seen[b] = 1;
        queue[0] = b;
        let end = 1;
        for (let next = 0; next < end; next++) {
            const i = queue[next];
            for (let j = 0; j < n; j++) {
                if (seen[j] === 1 || (this._touched[i * n + j] === 0 && this._touched[j * n + i] === 0)) {
                    continue;
                }
                seen[j] = 1;
                const partner = bodies[j];
                if (partner.sleeping) {
                    continue;
                }
                if (!readyToSleep(partner)) {
                    return false;
                }
                queue[end++] = j;
            }
        }
        return true;
    }

    /** Adds the surface particles of body slot `i` to the hash, at the middle of their motion over the substep. */
    private _insert(body: SoftBody, i: number, surface: Int32Array | null): void {
        const hash = this._hash;
        const box = this._entryBox;
        const x = body.positions;
        const start = body.sleeping ? body.positions : body.previousPositions;
        const count = surface !== null ? surface.length : body.particleCount;
        for (let s = 0; s < count; s++) {
            const p = surface !== null ? surface[s] : s;
            const k = 3 * p;
            const e = hash.count;
            this._entryBody[e] = i;
            this._entryParticle[e] = p;
            for (let d = 0; d < 3; d++) {
                const now = x[k + d];
                const then = start[k + d];
                box[6 * e + d] = now < then ? now : then;
                box[6 * e + 3 + d] = now < then ? then : now;
            }
            hash.insert(0.5 * (x[k] + start[k]), 0.5 * (x[k + 1] + start[k + 1]), 0.5 * (x[k + 2] + start[k + 2]));
        }
    }

    /** Adds the candidates of every triangle of body slot `j` against the hashed particles of the pairs it is in. */
    private _queryTriangles(bodies: readonly SoftBody[], j: number): void {
        const body = bodies[j];
        const pairRow = j;
        const n = bodies.length;
        const x = body.positions;
        const start = body.sleeping ? body.positions : body.previousPositions;
        const rest = body.restPositions;
        const thickness = this._materials[3 * j];
        const checkRest = body.selfCollision && this._restGap[j] <= thickness;
        const tri = body.triangles;
        const hash = this._hash;
        const inv = 1 / hash.cellSize;
        const cells = hash.cells;
        const sorted = hash.sorted;
        const bucketStart = hash.start;
        const entryBody = this._entryBody;
        const entryParticle = this._entryParticle;
        const entryBox = this._entryBox;
        const pairs = this._pairs;
        const closest = this._closest;
        const query = this._query;
        const c = this._scratch;
        const reach = c[REACH];
        const margin = c[MARGIN];
        for (let t = 0; t < tri.length; t += 3) {
            const ia = 3 * tri[t];
            const ib = 3 * tri[t + 1];
            const ic = 3 * tri[t + 2];
            let minX = x[ia];
            let minY = x[ia + 1];
            let minZ = x[ia + 2];
            let maxX = minX;
            let maxY = minY;
            let maxZ = minZ;
            // The six corners: three now, three at the substep's start.
            for (let v = 0; v < 6; v++) {
                const array = v < 3 ? x : start;
                const o = v % 3 === 0 ? ia : v % 3 === 1 ? ib : ic;
                const px = array[o];
                const py = array[o + 1];
                const pz = array[o + 2];
                minX = px < minX ? px : minX;
                maxX = px > maxX ? px : maxX;
                minY = py < minY ? py : minY;
                maxY = py > maxY ? py : maxY;
                minZ = pz < minZ ? pz : minZ;
                maxZ = pz > maxZ ? pz : maxZ;
            }
            const x0 = Math.floor((minX - reach) * inv);
            const y0 = Math.floor((minY - reach) * inv);
            const z0 = Math.floor((minZ - reach) * inv);
            const x1 = Math.floor((maxX + reach) * inv);
            const y1 = Math.floor((maxY + reach) * inv);
            const z1 = Math.floor((maxZ + reach) * inv);
            if (x1 - x0 >= MAX_CELL_SPAN || y1 - y0 >= MAX_CELL_SPAN || z1 - z0 >= MAX_CELL_SPAN) {
                continue;
            }
            minX -= margin;
            minY -= margin;
            minZ -= margin;
            maxX += margin;
            maxY += margin;
            maxZ += margin;
            for (let cx = x0; cx <= x1; cx++) {
                for (let cy = y0; cy <= y1; cy++) {
                    for (let cz = z0; cz <= z1; cz++) {
                        const h = hash.bucketOf(cx, cy, cz);
                        const end = bucketStart[h + 1];
                        for (let s = bucketStart[h]; s < end; s++) {
                            const e = sorted[s];
                            const b = 6 * e;
                            if (
                                entryBox[b] > maxX ||
                                entryBox[b + 3] < minX ||
                                entryBox[b + 1] > maxY ||
                                entryBox[b + 4] < minY ||
                                entryBox[b + 2] > maxZ ||
                                entryBox[b + 5] < minZ ||
                                cells[3 * e] !== cx ||
                                cells[3 * e + 1] !== cy ||
                                cells[3 * e + 2] !== cz
                            ) {
                                continue;
                            }
                            const i = entryBody[e];
                            if (pairs[i * n + pairRow] === 0) {
                                continue;
                            }
                            const particle = entryParticle[e];
                            const ip = 3 * particle;
                            if (i === j) {
                                if (ip === ia || ip === ib || ip === ic) {
                                    continue;
                                }
                                if (checkRest) {
                                    query[0] = rest[ip];
                                    query[1] = rest[ip + 1];
                                    query[2] = rest[ip + 2];
                                    closestPointOnTriangle(rest, ia, ib, ic, query, closest);
                                    if (closest[3] < thickness * thickness) {
                                        continue;
                                    }
                                }
                            }
                            const other = bodies[i];
                            c[NEAR] = 2 * (i === j ? thickness : 0.5 * (thickness + this._materials[3 * i]));
                            const side = this._startSide(start, ia, ib, ic, other.sleeping ? other.positions : other.previousPositions, ip);
                            // A particle that starts behind a closed body's face, over it, is inside that body: the
                            // face would push it through the body's surface.
                            const closed = i === j ? 0 : this._closed[j];
                            if (closed !== 0 && side !== 0 && side !== closed && closest[4] > 0 && closest[5] > 0 && closest[6] > 0) {
                                continue;
                            }
                            this._add(i, particle, j, t, side);
                        }
                    }
                }
            }
        }
    }

    /**
     * The side of the triangle (corners at `ia`, `ib`, `ic` of `x`, at the substep's start) that the particle at `ip`
     * of `xp` starts on, +1 along `(b − a) × (c − a)` and −1 against it, when it starts within `_scratch[NEAR]` of it or
     * over its face (its closest point inside the triangle); else 0 (unknown: farther away beyond an edge, the
     * triangle's plane says little about which side of a curved surface the particle is on). Over the face the plane
     * tells the side at any distance within reach: a jelly dropped 1 m into a hammock meets cloth that springs up
     * farther than two contact distances in a substep, and its particles, of no known side, were left where the
     * passes put them, some below the cloth for good.
     */
    private _startSide(x: Float64Array, ia: number, ib: number, ic: number, xp: Float64Array, ip: number): number {
        const near = this._scratch[NEAR];
        const query = this._query;
        const closest = this._closest;
        query[0] = xp[ip];
        query[1] = xp[ip + 1];
        query[2] = xp[ip + 2];
        closestPointOnTriangle(x, ia, ib, ic, query, closest);
        if (!(closest[3] < near * near) && !(closest[4] > 0 && closest[5] > 0 && closest[6] > 0)) {
            return 0;
        }
        const normal = this._normal;
        triangleNormal(x, ia, ib, ic, normal);
        return (query[0] - x[ia]) * normal[0] + (query[1] - x[ia + 1]) * normal[1] + (query[2] - x[ia + 2]) * normal[2] >= 0 ? 1 : -1;
    }

    private _add(particleBody: number, particle: number, triangleBody: number, triangle: number, side: number): void {
        if (this.count >= this.capacity) {
            this.overflowed = true;
            return;
        }
        const k = this.count++;
        this._particleBody[k] = particleBody;
        this._particle[k] = particle;
        this._triangleBody[k] = triangleBody;
        this._triangle[k] = triangle;
        this._side[k] = side;
        this._touchedInSubstep[k] = 0;
    }

    /**
     * The contact normal into {@link _normal}, pointing from the triangle to where the particle belongs, given the
     * closest point in {@link _closest} and the query in {@link _query}. Inside the triangle it is the triangle's normal
     * on the candidate's side. On an edge or a corner it is the direction from the closest point: away from it when
     * the particle is on its side of the triangle's plane (or the edge or corner is on the surface's border, where a
     * particle may pass round), towards it when the particle crossed. Returns false when there is none (a degenerate
     * triangle, or an edge or corner farther than the contact distance).
     */
    private _contactNormal(x: Float64Array, tri: Int32Array, t: number, side: number, interior: number): boolean {
        const contactDistance = this._scratch[CONTACT_DISTANCE];
        const ia = 3 * tri[t];
        const ib = 3 * tri[t + 1];
        const ic = 3 * tri[t + 2];
        const closest = this._closest;
        const query = this._query;
        const normal = this._normal;
        const ua = closest[4];
        const ub = closest[5];
        const uc = closest[6];
        triangleNormal(x, ia, ib, ic, normal);
        const nx = normal[0];
        const ny = normal[1];
        const nz = normal[2];
        const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(length > 1e-24)) {
            return false;
        }
        const dx = query[0] - closest[0];
        const dy = query[1] - closest[1];
        const dz = query[2] - closest[2];
        const d2 = closest[3];
        // A side unknown at the start is the side the particle is on now, and holds only within the contact distance.
        const known = side !== 0;
        const s = (known ? side : dx * nx + dy * ny + dz * nz >= 0 ? 1 : -1) / length;
        if (ua > 0 && ub > 0 && uc > 0) {
            normal[0] = nx * s;
            normal[1] = ny * s;
            normal[2] = nz * s;
            return known || d2 < contactDistance * contactDistance;
        }
        if (!(d2 > 1e-24)) {
            return false;
        }
        // Edge k (a–b, b–c, c–a) is interior when bit k is set; a corner is when both its edges are. A particle on the
        // wrong side of an interior one crossed the surface there (at any distance), and goes back.
        const mask = uc === 0 ? (ua === 0 ? 3 : ub === 0 ? 5 : 1) : ua === 0 ? (ub === 0 ? 6 : 2) : 4;
        if ((interior & mask) === mask && known && (dx * nx + dy * ny + dz * nz) * s < 0) {
            // Crossed: back across the triangle's plane, not towards the edge (that would throw it sideways).
            normal[0] = nx * s;
            normal[1] = ny * s;
            normal[2] = nz * s;
            return true;
        }
        if (!(d2 < contactDistance * contactDistance)) {
            return false;
        }
        const inv = 1 / Math.sqrt(d2);
        normal[0] = dx * inv;
        normal[1] = dy * inv;
        normal[2] = dz * inv;
        return true;
    }

    /**
     * Positional friction of one touching candidate (its weights, denominator and depth in {@link _scratch}; `ma`, `mb`
     * the two bodies' offsets in {@link _materials}): removes
     * the particle's slip relative to the triangle's closest point over the substep, all of it inside the static cone
     * (slip under μs × depth), else μk × depth.
     */
    private _friction(
        a: SoftBody,
        b: SoftBody,
        p: number,
        ia: number,
        ib: number,
        ic: number,
        ma: number,
        mb: number,
        held: boolean,
    ): void {
        const materials = this._materials;
        const ip = 3 * p;
        const c = this._scratch;
        const depth = c[DEPTH];
        const us = Math.sqrt(materials[ma + 1] * materials[mb + 1]);
        const uk = Math.sqrt(materials[ma + 2] * materials[mb + 2]);
        if (us === 0 && uk === 0) {
            return;
        }
        const normal = this._normal;
        const closest = this._closest;
        const xa = a.positions;
        const sa = a.sleeping ? xa : a.previousPositions;
        const xb = b.positions;
        const sb = b.sleeping ? xb : b.previousPositions;
        const ba = closest[4];
        const bb = closest[5];
        const bc = closest[6];
        const nx = normal[0];
        const ny = normal[1];
        const nz = normal[2];
        // A held support slips as its pins move: its own motion carries the cloth's small corrections, which would drag
        // the body resting on it sideways (as in the held solve against colliders).
        const ja = held ? 3 * b.tethers.firstAnchor(ia / 3) : ia;
        const jb = held ? 3 * b.tethers.firstAnchor(ib / 3) : ib;
        const jc = held ? 3 * b.tethers.firstAnchor(ic / 3) : ic;
        let sx = xa[ip] - sa[ip] - ba * (xb[ja] - sb[ja]) - bb * (xb[jb] - sb[jb]) - bc * (xb[jc] - sb[jc]);
        let sy = xa[ip + 1] - sa[ip + 1] - ba * (xb[ja + 1] - sb[ja + 1]) - bb * (xb[jb + 1] - sb[jb + 1]) - bc * (xb[jc + 1] - sb[jc + 1]);
        let sz = xa[ip + 2] - sa[ip + 2] - ba * (xb[ja + 2] - sb[ja + 2]) - bb * (xb[jb + 2] - sb[jb + 2]) - bc * (xb[jc + 2] - sb[jc + 2]);
        const along = sx * nx + sy * ny + sz * nz;
        sx -= along * nx;
        sy -= along * ny;
        sz -= along * nz;
        const slip = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (slip < 1e-12) {
            return;
        }
        const removed = slip < us * depth ? slip : Math.min(uk * depth, slip);
        // Along −slip: the particle's slip shrinks by `removed`.
        c[LAMBDA] = -removed / (c[DENOMINATOR] * slip);
        normal[0] = sx;
        normal[1] = sy;
        normal[2] = sz;
        moveContact(xa, ip, xb, ia, ib, ic, c, normal);
        addImpulse(a, b, p, ia, ib, ic, closest, c, normal);
    }
}

/**
 * Moves the particle at `ip` of `xa` by `wp λ d` and the corners of the triangle in `xb` by `−kᵢ λ d`, where `kᵢ`
 * is the corner's inverse mass times its weight (`wp`, `kᵢ` and λ in the slots of `c`).
 */
function moveContact(
    xa: Float64Array,
    ip: number,
    xb: Float64Array,
    ia: number,
    ib: number,
    ic: number,
    c: Float64Array,
    d: Float64Array,
): void {
    const wp = c[W_P];
    const ka = c[K_A];
    const kb = c[K_B];
    const kc = c[K_C];
    const lambda = c[LAMBDA];
    for (let k = 0; k < 3; k++) {
        const step = lambda * d[k];
        xa[ip + k] += wp * step;
        xb[ia + k] -= ka * step;
        xb[ib + k] -= kb * step;
        xb[ic + k] -= kc * step;
    }
}

/**
 * Adds the impulse `j d` (N·s, `j` = λ / h from the slots of `c`) the contact put on the particle to its body's contact
 * impulse, and what it put on the triangle's corners (weights in `closest[4..6]`) to theirs: the momentum each body's
 * free particles gain, for the pin-force balance. A corner held by its tethers counts: its pins take the load.
 */
function addImpulse(
    a: SoftBody,
    b: SoftBody,
    p: number,
    ia: number,
    ib: number,
    ic: number,
    closest: Float64Array,
    c: Float64Array,
    d: Float64Array,
): void {
    const j = c[LAMBDA] * c[INV_H];
    const ba = closest[4];
    const bb = closest[5];
    const bc = closest[6];
    const onParticle = !a.sleeping && a.inverseMasses[p] > 0 ? j : 0;
    const w = b.inverseMasses;
    const onTriangle = b.sleeping ? 0 : -j * ((w[ia / 3] > 0 ? ba : 0) + (w[ib / 3] > 0 ? bb : 0) + (w[ic / 3] > 0 ? bc : 0));
    const ja = a.contacts.impulse;
    const jb = b.contacts.impulse;
    for (let k = 0; k < 3; k++) {
        ja[k] += onParticle * d[k];
        jb[k] += onTriangle * d[k];
    }
}

/**
 * `body`'s centre of mass at the substep's start and its velocity (0 asleep) into `out` from `o` (xyz, then xyz).
 */
function centreOfMass(body: SoftBody, out: Float64Array, o: number): void {
    const x = body.sleeping ? body.positions : body.previousPositions;
    const v = body.velocities;
    const masses = body.masses;
    let m = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let vx = 0;
    let vy = 0;
    let vz = 0;
    for (let q = 0; q < body.particleCount; q++) {
        const w = masses[q];
        m += w;
        cx += w * x[3 * q];
        cy += w * x[3 * q + 1];
        cz += w * x[3 * q + 2];
        vx += w * v[3 * q];
        vy += w * v[3 * q + 1];
        vz += w * v[3 * q + 2];
    }
    out[o] = cx / m;
    out[o + 1] = cy / m;
    out[o + 2] = cz / m;
    out[o + 3] = body.sleeping ? 0 : vx / m;
    out[o + 4] = body.sleeping ? 0 : vy / m;
    out[o + 5] = body.sleeping ? 0 : vz / m;
}

/** Whether an awake body has been slow for its sleep time, so that it may fall asleep. */
export function readyToSleep(body: SoftBody): boolean {
    return body.allowSleep && body._slowTime >= body.sleepTime;
}

/** Whether the two bodies' collision groups let them touch (each one's membership in the other's mask). */
export function pairAllowed(a: SoftBody, b: SoftBody): boolean {
    return (a.membership & b.collideWith) !== 0 && (b.membership & a.collideWith) !== 0;
}

/** Whether the boxes at slots `i` and `j` of `bounds` (min xyz, max xyz per slot) overlap, touching included. */
export function overlaps(bounds: Float64Array, i: number, j: number): boolean {
    const a = 6 * i;
    const b = 6 * j;
    return (
        bounds[a] <= bounds[b + 3] &&
        bounds[b] <= bounds[a + 3] &&
        bounds[a + 1] <= bounds[b + 4] &&
        bounds[b + 1] <= bounds[a + 4] &&
        bounds[a + 2] <= bounds[b + 5] &&
        bounds[b + 2] <= bounds[a + 5]
    );
}

/**
 * Bounds of the body's surface particles over `start` and `x`, grown by `c[MARGIN]`, into `out` at slot `i` (min xyz,
 * max xyz); the largest distance a particle moves from `start` to `x` into `c[MOVE]`.
 */
function bodyBounds(
    body: SoftBody,
    surface: Int32Array | null,
    start: Float64Array,
    x: Float64Array,
    out: Float64Array,
    i: number,
    c: Float64Array,
): void {
    const margin = c[MARGIN];
    let minX = Infinity;
    let minY = Infinity;
    let minZ = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    let maxZ = -Infinity;
    let move2 = 0;
    const count = surface !== null ? surface.length : body.particleCount;
    for (let s = 0; s < count; s++) {
        const k = 3 * (surface !== null ? surface[s] : s);
        const px = x[k];
        const py = x[k + 1];
        const pz = x[k + 2];
        const qx = start[k];
        const qy = start[k + 1];
        const qz = start[k + 2];
        minX = Math.min(minX, px, qx);
        minY = Math.min(minY, py, qy);
        minZ = Math.min(minZ, pz, qz);
        maxX = Math.max(maxX, px, qx);
        maxY = Math.max(maxY, py, qy);
        maxZ = Math.max(maxZ, pz, qz);
        const d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy) + (pz - qz) * (pz - qz);
        if (d2 > move2) {
            move2 = d2;
        }
    }
    const o = 6 * i;
    out[o] = minX - margin;
    out[o + 1] = minY - margin;
    out[o + 2] = minZ - margin;
    out[o + 3] = maxX + margin;
    out[o + 4] = maxY + margin;
    out[o + 5] = maxZ + margin;
    c[MOVE] = Math.sqrt(move2);
}

/** Largest speed of the body's surface particles (m/s), into `out[MOVE]`. */
function maxSpeed(body: SoftBody, surface: Int32Array | null, out: Float64Array): void {
    const v = body.velocities;
    let max2 = 0;
    const count = surface !== null ? surface.length : body.particleCount;
    for (let s = 0; s < count; s++) {
        const k = 3 * (surface !== null ? surface[s] : s);
        const s2 = v[k] * v[k] + v[k + 1] * v[k + 1] + v[k + 2] * v[k + 2];
        if (s2 > max2) {
            max2 = s2;
        }
    }
    out[MOVE] = Math.sqrt(max2);
}

/** Which edges of each triangle are shared with another (see `SoftContacts._interior`; the WebGPU self-collision's too). @internal */
export function interiorEdges(body: SoftBody): Uint8Array | null {
    const tri = body.triangles;
    if (tri.length === 0 || body.tearing !== null) {
        return null;
    }
    const count = new Map<number, number>();
    const key = (t: number, k: number): number => {
        const a = tri[t + k];
        const b = tri[t + ((k + 1) % 3)];
        return Math.min(a, b) * body.particleCapacity + Math.max(a, b);
    };
    for (let t = 0; t < tri.length; t += 3) {
        for (let k = 0; k < 3; k++) {
            count.set(key(t, k), (count.get(key(t, k)) ?? 0) + 1);
        }
    }
    const flags = new Uint8Array(tri.length / 3);
    for (let t = 0; t < tri.length; t += 3) {
        for (let k = 0; k < 3; k++) {
            if ((count.get(key(t, k)) ?? 0) > 1) {
                flags[t / 3] |= 1 << k;
            }
        }
    }
    return flags;
}

/** The normal `(b − a) × (c − a)` (not normalised) of the triangle with corners at `ia`, `ib`, `ic` of `x`, into `out`. */
function triangleNormal(x: Float64Array, ia: number, ib: number, ic: number, out: Float64Array): void {
    const e1x = x[ib] - x[ia];
    const e1y = x[ib + 1] - x[ia + 1];
    const e1z = x[ib + 2] - x[ia + 2];
    const e2x = x[ic] - x[ia];
    const e2y = x[ic + 1] - x[ia + 1];
    const e2z = x[ic + 2] - x[ia + 2];
    out[0] = e1y * e2z - e1z * e2y;
    out[1] = e1z * e2x - e1x * e2z;
    out[2] = e1x * e2y - e1y * e2x;
}

/** The particles of a body that take part: null (all) for a cloth, the corners of the surface triangles otherwise. */
function surfaceParticles(body: SoftBody): Int32Array | null {
    if (body.volume.count === 0 && body.shapeMatching === null) {
        return null;
    }
    const seen = new Uint8Array(body.particleCapacity);
    for (let t = 0; t < body.triangles.length; t++) {
        seen[body.triangles[t]] = 1;
    }
    const list: number[] = [];
    for (let p = 0; p < seen.length; p++) {
        if (seen[p] === 1) {
            list.push(p);
        }
    }
    return Int32Array.from(list);
}

function distance(x: Float64Array, a: number, b: number): number {
    return Math.hypot(x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]);
}

/**
 * The least distance at rest from a particle of the body to a triangle it is not a corner of, among the pairs closer
 * than `limit`, else `limit`. Built once, outside the step; a triangle's neighbours in a grid cloth lie a good part of
 * an edge away.
 */
function restGap(body: SoftBody, limit: number): number {
    const tri = body.triangles;
    if (tri.length === 0) {
        return Infinity;
    }
    const rest = body.restPositions;
    const hash = new ParticleHash(body.particleCount);
    hash.cellSize = limit;
    for (let p = 0; p < body.particleCount; p++) {
        hash.insert(rest[3 * p], rest[3 * p + 1], rest[3 * p + 2]);
    }
    hash.build();
    const query = new Float64Array(3);
    const closest = new Float64Array(7);
    let gap2 = limit * limit;
    for (let t = 0; t < tri.length; t += 3) {
        const ia = 3 * tri[t];
        const ib = 3 * tri[t + 1];
        const ic = 3 * tri[t + 2];
        // Every particle within `limit` of the triangle lies in a cell of its box grown by `limit`.
        const x0 = Math.floor(Math.min(rest[ia], rest[ib], rest[ic]) / limit) - 1;
        const y0 = Math.floor(Math.min(rest[ia + 1], rest[ib + 1], rest[ic + 1]) / limit) - 1;
        const z0 = Math.floor(Math.min(rest[ia + 2], rest[ib + 2], rest[ic + 2]) / limit) - 1;
        const x1 = Math.floor(Math.max(rest[ia], rest[ib], rest[ic]) / limit) + 1;
        const y1 = Math.floor(Math.max(rest[ia + 1], rest[ib + 1], rest[ic + 1]) / limit) + 1;
        const z1 = Math.floor(Math.max(rest[ia + 2], rest[ib + 2], rest[ic + 2]) / limit) + 1;
        for (let cx = x0; cx <= x1; cx++) {
            for (let cy = y0; cy <= y1; cy++) {
                for (let cz = z0; cz <= z1; cz++) {
                    const h = hash.bucketOf(cx, cy, cz);
                    for (let s = hash.start[h]; s < hash.start[h + 1]; s++) {
                        const e = hash.sorted[s];
                        const ip = 3 * e;
                        if (ip === ia || ip === ib || ip === ic) {
                            continue;
                        }
                        query[0] = rest[ip];
                        query[1] = rest[ip + 1];
                        query[2] = rest[ip + 2];
                        closestPointOnTriangle(rest, ia, ib, ic, query, closest);
                        gap2 = Math.min(gap2, closest[3]);
                    }
                }
            }
        }
    }
    return Math.sqrt(gap2);
}
