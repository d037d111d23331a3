import { writeHinge } from "./bendConstraints.js";
import { ClothElements } from "./clothElements.js";
import { ClothSplitter, OUT_OF_PARTICLES } from "./clothSplitter.js";
import { ConstraintColouring } from "./constraintColouring.js";
import { type EventQueue, SoftBodyEventType } from "./eventQueue.js";
import { IndexHeap } from "./indexHeap.js";
import { ISOMETRIC_BEND_MAX_REST_ANGLE, IsometricBendConstraints } from "./isometricBendConstraints.js";
import type { SoftBody } from "./softBody.js";

/** `element` of the {@link SoftBodyEventType.CapacityExceeded} event a cloth raises when it has no particle left to tear with. */
export const TEAR_CAPACITY_ELEMENT = 2;

/** Numbers per record in {@link ClothTearing.tears}. */
export const TEAR_RECORD_SIZE = 4;

/**
 * Tearing of a cloth (a body with triangles and no tetrahedra), run by the world at the end of a step, never inside
 * the substep loop: the constraints the loop projects never change under it.
 *
 * At the end of each step every stretch edge longer than {@link ClothTearing.tearRatio} × its rest length is a
 * candidate, and the most stretched go first. Each tears by splitting one of its particles in two (see
 * `clothSplitter.ts`: across the edge, so that the crack runs across the pull); one that cannot split waits. Within
 * one step a particle split once is not split again: the edges around it were measured before it split.
 *
 * Masses are shared so that the total is conserved exactly, and momentum alike (see `particleSplit.ts`).
 * Afterwards the stretch, shear and bend elements are derived again from the triangles (see `clothElements.ts`) and
 * coloured, the tethers find their anchors in the new pieces, and the pins and inverse masses are rebuilt, all
 * before the next step.
 *
 * Memory is fixed when the body is built: up to `maxTearParticles` new particles, and room for the most elements
 * the triangles can give. When the particles run out the cloth stops tearing for good and reports it once, as a
 * {@link SoftBodyEventType.CapacityExceeded} event with element {@link TEAR_CAPACITY_ELEMENT}. A step that tears
 * allocates no buffer either (`test/core/tearAllocation.test.ts` measures it).
 */
export class ClothTearing {
    /** An edge longer than this × its rest length at the end of a step tears (greater than 1). */
    public tearRatio: number;
    /**
     * The last step's splits, {@link TEAR_RECORD_SIZE} numbers each: the torn edge's two particles (as they were
     * numbered before the step's splits), the particle split, and the particle made.
     */
    public readonly tears: Int32Array;
    /** Splits in the last step (0 when it tore nothing). */
    public tearCount = 0;
    /** Particles made by tearing so far. */
    public tornParticles = 0;
    /** Per particle, 1 when it lies on a tear (it was split, or made by a split), else 0: for heatmaps. */
    public readonly torn: Float32Array;
    /** Set once the body has no particle left to tear with; it then never tears again. */
    public exhausted = false;

    private _exhaustionReported = false;
    private readonly _splitter: ClothSplitter;
    private readonly _elements: ClothElements;
    private readonly _colouring: ConstraintColouring;
    private readonly _order: Int32Array;
    private readonly _bend: Int32Array;
    private readonly _graph: Int32Array;
    /** Per stretch edge: minus its squared stretch ratio, so that {@link _candidates} yields the most stretched first. */
    private readonly _keys: Float64Array;
    /** The stretch edges over the ratio; equally stretched ones by index, so that the tears do not depend on the fill. */
    private readonly _candidates: IndexHeap;
    private readonly _hinge = new Float64Array(10);

    /**
     * @param body - the body (its particle capacity, triangles and constraint capacities are read)
     * @param tearRatio - see {@link ClothTearing.tearRatio}
     * @param maxTearParticles - particles the body may make by tearing
     */
    public constructor(body: SoftBody, tearRatio: number, maxTearParticles: number) {
        this.tearRatio = tearRatio;
        const particles = body.particleCapacity;
        this.tears = new Int32Array(TEAR_RECORD_SIZE * maxTearParticles);
        this.torn = new Float32Array(particles);
        this._splitter = new ClothSplitter(body, this);
        this._elements = new ClothElements(body.triangles.length / 3);
        const stretchCapacity = body.stretch.indices.length >> 1;
        const shearCapacity = body.shear.indices.length >> 1;
        const most = Math.max(stretchCapacity, shearCapacity, body.bend.indices.length >> 2);
        this._colouring = new ConstraintColouring(particles, most);
        this._order = new Int32Array(most);
        this._bend = new Int32Array(this._elements.bend.length);
        this._graph = new Int32Array(2 * (stretchCapacity + shearCapacity));
        this._keys = new Float64Array(stretchCapacity);
        this._candidates = new IndexHeap(this._keys, true);
    }

    /**
     * Tears the body's over-stretched edges (see the class comment) and rebuilds its constraints when any tore.
     * Called by the world at the end of a step of an awake body whose state is valid; events go to `events`.
     */
    public tear(body: SoftBody, events: EventQueue): void {
        if (this.exhausted) {
            if (!this._exhaustionReported) {
                this._reportExhaustion(body, events);
            }
            return;
        }
        if (!this._collectCandidates(body)) {
            return;
        }
        const splitter = this._splitter;
        splitter.beginStep();
        const edges = body.stretch.indices;
        const candidates = this._candidates;
        while (candidates.size > 0) {
            const c = candidates.pop();
            const a = edges[2 * c];
            const b = edges[2 * c + 1];
            if (splitter.splitThisStep(a) || splitter.splitThisStep(b)) {
                continue;
            }
            if (splitter.tearEdge(body, a, b) === OUT_OF_PARTICLES) {
                this.exhausted = true;
                this._reportExhaustion(body, events);
                break;
            }
        }
        if (this.tearCount > 0) {
            this._rebuild(body);
        }
    }

    /** Records a split of `p` into `p` and `made`, which tore the edge `a`–`b`. @internal */
    public _record(a: number, b: number, p: number, made: number): void {
        const record = TEAR_RECORD_SIZE * this.tearCount++;
        this.tears[record] = a;
        this.tears[record + 1] = b;
        this.tears[record + 2] = p;
        this.tears[record + 3] = made;
        this.torn[p] = 1;
        this.torn[made] = 1;
        this.tornParticles++;
    }

    private _reportExhaustion(body: SoftBody, events: EventQueue): void {
        // Reported once, or at the next step when the event queue was full.
        this._exhaustionReported = events.push(
            SoftBodyEventType.CapacityExceeded,
            body.id,
            TEAR_CAPACITY_ELEMENT,
            this.tears.length / TEAR_RECORD_SIZE,
        );
    }

    /** Fills {@link _candidates} with the stretch edges over the ratio; returns whether there is any. */
    private _collectCandidates(body: SoftBody): boolean {
        const x = body.positions;
        const edges = body.stretch.indices;
        const rest = body.stretch.restLengths;
        const ratio2 = this.tearRatio * this.tearRatio;
        const keys = this._keys;
        const candidates = this._candidates;
        candidates.clear();
        for (let c = 0; c < body.stretch.count; c++) {
            const i = 3 * edges[2 * c];
            const j = 3 * edges[2 * c + 1];
            const dx = x[j] - x[i];
            const dy = x[j + 1] - x[i + 1];
            const dz = x[j + 2] - x[i + 2];
            const rest2 = rest[c] * rest[c];
            // Squared, so an edge under the ratio (nearly all of them) costs no division.
            const d2 = dx * dx + dy * dy + dz * dz;
            if (d2 > ratio2 * rest2) {
                keys[c] = -d2 / rest2;
                candidates.push(c);
            }
        }
        return candidates.size > 0;
    }

    /** Derives and colours the elements of the torn triangles, then rebuilds tethers, pins and inverse masses. */
    private _rebuild(body: SoftBody): void {
        const elements = this._elements;
        const rest = body.restPositions;
        elements.derive(body.triangles, body.triangles.length / 3);
        const order = this._order;
        const colouring = this._colouring;
        colouring.orderInto(elements.stretch, elements.stretchCount, 2, order);
        body.stretch.rebuild(elements.stretch, order, elements.stretchCount, rest);
        colouring.orderInto(elements.shear, elements.shearCount, 2, order);
        body.shear.rebuild(elements.shear, order, elements.shearCount, rest);
        // An edge that was non-manifold may now have two triangles: its element may be folded, which only the
        // dihedral model can hold, or (never from a valid mesh) degenerate.
        const isometric = body.bend instanceof IsometricBendConstraints;
        const bend = this._bend;
        let bendCount = 0;
        for (let e = 0; e < elements.bendCount; e++) {
            const o = 4 * e;
            writeHinge(rest, elements.bend[o], elements.bend[o + 1], elements.bend[o + 2], elements.bend[o + 3], this._hinge);
            const angle = this._hinge[9];
            if (Number.isNaN(angle) || (isometric && Math.abs(angle) > ISOMETRIC_BEND_MAX_REST_ANGLE)) {
                continue;
            }
            for (let k = 0; k < 4; k++) {
                bend[4 * bendCount + k] = elements.bend[o + k];
            }
            bendCount++;
        }
        colouring.orderInto(bend, bendCount, 4, order);
        body.bend.rebuild(bend, order, bendCount, rest);
        this._rebuildTethersAndPins(body);
    }

    /**
     * Puts the tearing back as a snapshot saved it (see `topologySnapshot.ts`). The caller has written the particle
     * count, triangles, rest positions and masses; this takes the constraint lists in their saved order (so that
     * stepping on is bit-identical) and rebuilds the tethers, the pins and the splitter's corner lists. Not for the
     * step (it allocates). @internal
     */
    public _restore(
        body: SoftBody,
        stretch: Int32Array,
        shear: Int32Array,
        bend: Int32Array,
        torn: Uint8Array,
        tornParticles: number,
        exhausted: boolean,
    ): void {
        const rest = body.restPositions;
        const most = Math.max(stretch.length >> 1, shear.length >> 1, bend.length >> 2);
        const inOrder = Int32Array.from({ length: most }, (_, k) => k);
        body.stretch.rebuild(stretch, inOrder, stretch.length >> 1, rest);
        body.shear.rebuild(shear, inOrder, shear.length >> 1, rest);
        body.bend.rebuild(bend, inOrder, bend.length >> 2, rest);
        this.torn.fill(0);
        this.torn.set(torn);
        this.tornParticles = tornParticles;
        this.tearCount = 0;
        this.exhausted = exhausted;
        this._exhaustionReported = exhausted;
        this._splitter.linkCorners(body.triangles);
        this._rebuildTethersAndPins(body);
    }

    private _rebuildTethersAndPins(body: SoftBody): void {
        // The tethers' graph, as the body builds it: the stretch edges, then the shear pairs.
        const graph = this._graph;
        const stretchLength = 2 * body.stretch.count;
        for (let k = 0; k < stretchLength; k++) {
            graph[k] = body.stretch.indices[k];
        }
        for (let k = 0; k < 2 * body.shear.count; k++) {
            graph[stretchLength + k] = body.shear.indices[k];
        }
        body.tethers.setEdges(graph, body.stretch.count + body.shear.count);
        body._rebuildPins();
    }
}
