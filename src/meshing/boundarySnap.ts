/**
 * Moving the boundary vertices of a lattice tet mesh onto the surface it was cut from, without spoiling a tet: the
 * last step of `tetrahedralize`.
 */
import type { MeshingSteps } from "./meshingSteps.js";
import type { SurfaceTree } from "./surfaceTree.js";
import { tetQuality } from "./tetGeometry.js";

/** A surface snap is refused when it would leave an incident tet below this quality (and worse than before). */
const MIN_SNAP_QUALITY = 0.1;

/**
 * Moves each boundary vertex (in index order) onto its closest surface point, else half or a quarter of the way,
 * taking the first move after which every incident tet keeps quality ≥ {@link MIN_SNAP_QUALITY} or does not lose
 * quality. Returns `[snapped, rejected]` vertex counts; yields its progress every 64 boundary vertices (see `MeshingSteps`).
 */
export function* snapBoundaryVertices(
    nodes: Float64Array,
    nodeCount: number,
    tets: number[],
    boundaryFaces: Int32Array,
    surfaceTree: SurfaceTree,
): MeshingSteps<[number, number]> {
    // Vertex → incident tets (compressed rows).
    const start = new Int32Array(nodeCount + 1);
    for (const v of tets) start[v + 1]++;
    for (let v = 0; v < nodeCount; v++) start[v + 1] += start[v];
    const fill = start.slice(0, nodeCount);
    const incident = new Int32Array(tets.length);
    for (let i = 0; i < tets.length; i++) incident[fill[tets[i]]++] = i >> 2;

    yield 0;
    const isBoundary = new Uint8Array(nodeCount);
    for (const v of boundaryFaces) isBoundary[v] = 1;
    const target = new Float64Array(3);
    const before: number[] = [];
    let snapped = 0,
        rejected = 0;
    for (let v = 0; v < nodeCount; v++) {
        if (!isBoundary[v]) continue;
        if ((snapped + rejected) % 64 === 0) yield v / nodeCount;
        if (surfaceTree.closestPoint(nodes[3 * v], nodes[3 * v + 1], nodes[3 * v + 2], target) === Infinity) continue;
        const x = nodes[3 * v],
            y = nodes[3 * v + 1],
            z = nodes[3 * v + 2];
        before.length = 0;
        for (let s = start[v]; s < start[v + 1]; s++) before.push(quality(nodes, tets, incident[s]));
        let accepted = false;
        for (const fraction of [1, 0.5, 0.25]) {
            nodes[3 * v] = x + fraction * (target[0] - x);
            nodes[3 * v + 1] = y + fraction * (target[1] - y);
            nodes[3 * v + 2] = z + fraction * (target[2] - z);
            accepted = true;
            for (let s = start[v]; s < start[v + 1] && accepted; s++) {
                const q = quality(nodes, tets, incident[s]);
                accepted = q > 0 && (q >= MIN_SNAP_QUALITY || q >= before[s - start[v]]);
            }
            if (accepted) break;
        }
        if (accepted) {
            snapped++;
        } else {
            nodes[3 * v] = x;
            nodes[3 * v + 1] = y;
            nodes[3 * v + 2] = z;
            rejected++;
        }
    }
    return [snapped, rejected];
}

function quality(nodes: Float64Array, tets: number[], t: number): number {
    return tetQuality(nodes, tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]);
}
