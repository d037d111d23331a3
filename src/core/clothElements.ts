import { nextCornerSlot, PairTable, TriangleEdges } from "./triangleEdges.js";

/**
 * The stretch, shear and bend elements a cloth gets from its triangles, derived in memory allocated once (the mesh
 * builder derives them when a cloth is built; a tearing cloth derives them again after every tear):
 *
 * - stretch: every unique edge, smaller index first, in order of first appearance;
 * - shear: for each edge shared by exactly two triangles, the two vertices opposite it (the other diagonal of the
 *   quad they form), unless that pair is already a stretch edge or an earlier shear pair;
 * - bend: one element `[a, b, c, d]` per edge shared by exactly two triangles: `c`–`d` is the hinge, `(a, c, d)` is
 *   (a rotation of) the triangle that traverses it from `c` to `d` and `(b, d, c)` the other one.
 *
 * Edges used by more than two triangles (non-manifold) get neither shear nor bend.
 */
export class ClothElements {
    /** The edge table of the last {@link derive}. */
    public readonly edges: TriangleEdges;
    /** Stretch pairs (`stretchCount` of them): the edge table's own pairs. */
    public readonly stretch: Int32Array;
    /** Shear pairs (`shearCount` of them). */
    public readonly shear: Int32Array;
    /** Bend elements, 4 indices each (`bendCount` of them). */
    public readonly bend: Int32Array;
    /** Number of stretch pairs. */
    public stretchCount = 0;
    /** Number of shear pairs. */
    public shearCount = 0;
    /** Number of bend elements. */
    public bendCount = 0;
    /** Edges used by exactly one triangle. */
    public boundaryEdgeCount = 0;
    /** Two-triangle edges whose triangles traverse them in the same direction (the winding flips there). */
    public inconsistentEdgeCount = 0;
    private readonly _shearPairs: PairTable;

    /** @param triangleCapacity - most triangles a {@link derive} call is given */
    public constructor(triangleCapacity: number) {
        this.edges = new TriangleEdges(triangleCapacity);
        this.stretch = this.edges.edges.pairs;
        // A two-triangle edge uses two of the 3·T triangle corners.
        const interior = Math.floor((3 * triangleCapacity) / 2);
        this._shearPairs = new PairTable(interior);
        this.shear = this._shearPairs.pairs;
        this.bend = new Int32Array(4 * interior);
    }

    /** Derives the elements of the first `triangleCount` triangles of `triangles`. Allocation-free. */
    public derive(triangles: ArrayLike<number>, triangleCount: number): void {
        const table = this.edges;
        table.build(triangles, triangleCount);
        const edgeCount = table.count;
        this.stretchCount = edgeCount;
        const shearPairs = this._shearPairs;
        shearPairs.clear();
        let bendCount = 0;
        let boundary = 0;
        let inconsistent = 0;
        for (let e = 0; e < edgeCount; e++) {
            const n = table.triangleCount[e];
            if (n !== 2) {
                boundary += n === 1 ? 1 : 0;
                continue;
            }
            const s1 = table.firstSlot[e];
            const s2 = table.secondSlot[e];
            const c = triangles[s1];
            const d = triangles[nextCornerSlot(s1)];
            const a = triangles[nextCornerSlot(nextCornerSlot(s1))];
            const b = triangles[nextCornerSlot(nextCornerSlot(s2))];
            if (triangles[s2] === c) {
                inconsistent++;
            }
            this.bend[4 * bendCount] = a;
            this.bend[4 * bendCount + 1] = b;
            this.bend[4 * bendCount + 2] = c;
            this.bend[4 * bendCount + 3] = d;
            bendCount++;
            if (table.edges.find(a, b) < 0) {
                shearPairs.add(a, b);
            }
        }
        this.shearCount = shearPairs.count;
        this.bendCount = bendCount;
        this.boundaryEdgeCount = boundary;
        this.inconsistentEdgeCount = inconsistent;
    }
}
