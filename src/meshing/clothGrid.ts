/**
 * A rectangular grid cloth built directly: render mesh arrays for Babylon `VertexData` plus its cloth topology.
 */
import { knownKeys } from "../core/argumentChecks.js";
import { buildClothTopology, type ClothTopology } from "./clothTopology.js";

const CLOTH_GRID_OPTIONS = ["width", "height", "segmentsX", "segmentsY", "plane", "origin", "alternateDiagonals"] as const;

/** Options of {@link createClothGrid}. */
export interface ClothGridOptions {
    /** Size along x (world units). */
    width: number;
    /** Size along the second axis (y for plane `"xy"`, z for plane `"xz"`). */
    height: number;
    /** Quads along x (integer ≥ 1). */
    segmentsX: number;
    /** Quads along the second axis (integer ≥ 1). */
    segmentsY: number;
    /**
     * Plane of the cloth. `"xy"` (default): a hanging sheet, front (normal) towards −z, like Babylon's `CreatePlane`,
     * facing the default camera. `"xz"`: a horizontal sheet, normal +y, like `CreateGround`.
     */
    plane?: "xy" | "xz";
    /** Centre of the grid, default `[0, 0, 0]`. */
    origin?: readonly [number, number, number];
    /**
     * Alternate the quad diagonals in a checkerboard (default true): the cloth then has no preferred shear
     * direction. With false every quad is split along the same diagonal.
     */
    alternateDiagonals?: boolean;
}

/** Result of {@link createClothGrid}: a render mesh and its cloth topology (particle i is render vertex i). */
export interface ClothGrid {
    /** Render positions, xyz interleaved, `(segmentsX + 1) · (segmentsY + 1)` vertices. */
    positions: Float32Array;
    /** Triangle indices, Babylon winding (front normals as documented on {@link ClothGridOptions.plane}). */
    indices: Uint32Array;
    /** Texture coordinates: u from 0 (−x) to 1 (+x); v from 1 on row 0 to 0 on the last row. */
    uvs: Float32Array;
    /** Unit normals (all equal: −z for `"xy"`, +y for `"xz"`). */
    normals: Float32Array;
    /** Vertices per row (`segmentsX + 1`); vertex `(i, j)` is `j · columns + i`. */
    columns: number;
    /** Number of rows (`segmentsY + 1`). Row 0 is at +y (`"xy"`) or +z (`"xz"`): the edge to pin for a curtain. */
    rows: number;
    /**
     * Cloth topology with the grid's natural elements: stretch = the horizontal and vertical edges plus the
     * diagonal that splits each quad; shear = the other diagonal of each quad; bend = one dihedral element across
     * every interior edge (horizontal, vertical and diagonal). `renderToParticle` is the identity.
     */
    topology: ClothTopology;
}

/**
 * Builds an N×M grid cloth centred on `origin`. Vertex `(i, j)` (column i along +x, row j from the top edge)
 * has index `j · (segmentsX + 1) + i`.
 * @param options - Size, resolution, plane and centre.
 * @throws Error when sizes are not positive and finite or segment counts are not positive integers; TypeError for
 * an option it does not know.
 */
export function createClothGrid(options: ClothGridOptions): ClothGrid {
    knownKeys(options, CLOTH_GRID_OPTIONS, "createClothGrid");
    const { width, height, segmentsX, segmentsY } = options;
    if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
        throw new Error(`createClothGrid: width and height must be positive and finite (got ${width} × ${height})`);
    }
    if (!(Number.isInteger(segmentsX) && Number.isInteger(segmentsY) && segmentsX >= 1 && segmentsY >= 1)) {
        throw new Error(`createClothGrid: segmentsX and segmentsY must be integers >= 1 (got ${segmentsX}, ${segmentsY})`);
    }
    const vertical = (options.plane ?? "xy") === "xy";
    const [ox, oy, oz] = options.origin ?? [0, 0, 0];
    const alternate = options.alternateDiagonals ?? true;
    const columns = segmentsX + 1,
        rows = segmentsY + 1;
    const count = columns * rows;
    const positions = new Float32Array(count * 3);
    const uvs = new Float32Array(count * 2);
    const normals = new Float32Array(count * 3);
    for (let j = 0; j < rows; j++) {
        const s = height / 2 - (j * height) / segmentsY;
        for (let i = 0; i < columns; i++) {
            const v = j * columns + i;
            positions[3 * v] = ox - width / 2 + (i * width) / segmentsX;
            positions[3 * v + 1] = vertical ? oy + s : oy;
            positions[3 * v + 2] = vertical ? oz : oz + s;
            uvs[2 * v] = i / segmentsX;
            uvs[2 * v + 1] = 1 - j / segmentsY;
            normals[3 * v + 1] = vertical ? 0 : 1;
            normals[3 * v + 2] = vertical ? -1 : 0;
        }
    }

    // Quad corners: tl (i, j), tr (i+1, j), bl (i, j+1), br (i+1, j+1). In both planes the triangles
    // (tl, bl, br) / (tl, br, tr) and (tl, bl, tr) / (tr, bl, br) give Babylon normals (p0−p1)×(p2−p1) towards
    // −z ("xy") or +y ("xz").
    const indices = new Uint32Array(segmentsX * segmentsY * 6);
    const shear = new Int32Array(segmentsX * segmentsY * 2);
    let k = 0;
    for (let j = 0; j < segmentsY; j++) {
        for (let i = 0; i < segmentsX; i++) {
            const tl = j * columns + i,
                tr = tl + 1,
                bl = tl + columns,
                br = bl + 1;
            const q = j * segmentsX + i;
            if (!alternate || (i + j) % 2 === 0) {
                indices.set([tl, bl, br, tl, br, tr], k);
                shear[2 * q] = tr;
                shear[2 * q + 1] = bl;
            } else {
                indices.set([tl, bl, tr, tr, bl, br], k);
                shear[2 * q] = tl;
                shear[2 * q + 1] = br;
            }
            k += 6;
        }
    }

    // No two grid vertices coincide, so welding is the identity; shear is replaced by the per-quad diagonals.
    const topology = buildClothTopology(positions, indices, { weldTolerance: 0 });
    topology.shear = shear;
    return { positions, indices, uvs, normals, columns, rows, topology };
}
