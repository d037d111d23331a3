/**
 * The render side of a tearing cloth: which particle each render vertex follows, kept in step with the simulation
 * triangles as particles split. A render vertex whose triangles now use two particles is split too (a copy for each
 * extra particle), so that the render mesh opens where the cloth tears.
 */
import type { ClothTopology } from "./clothTopology.js";

/** What {@link TearBinding.follow} changed. */
export interface TearBindingChange {
    /** Render vertices added (the binding's vertex count grew by this much). */
    added: number;
    /** For each added vertex in order, the vertex it copies (its attributes: uv, colour…). */
    sources: Int32Array;
    /** Whether any render index changed (false: the render triangles still use the same vertices). */
    indicesChanged: boolean;
}

/**
 * Render vertex → particle for a welded cloth (see `applyWeldBinding`) that follows tears. Render triangles are tied
 * to the simulation triangles they became (`ClothTopology.triangleSource`); a render triangle dropped as a duplicate
 * (the back of a double-sided mesh) follows the triangle it repeats, and one dropped as degenerate keeps its vertices.
 */
export class TearBinding {
    /** Render vertex → particle; a new array whenever vertices are added. */
    public renderToParticle: Int32Array;
    /** Render vertex → the mesh's own vertex it descends from (itself for those). A new array whenever vertices are added. */
    public vertexOrigin: Int32Array;
    /** Render triangle indices, updated in place. */
    public readonly indices: Uint32Array;
    /** Per render triangle, its simulation triangle, or −1. */
    private readonly _simTriangle: Int32Array;
    /** Per render triangle corner, the corner of its simulation triangle holding the same particle. */
    private readonly _simCorner: Uint8Array;

    /**
     * @param indices - the render mesh's triangle indices (copied)
     * @param topology - its cloth topology: triangles, the render triangle each came from, and the weld map
     */
    public constructor(indices: ArrayLike<number>, topology: Pick<ClothTopology, "triangles" | "triangleSource" | "renderToParticle">) {
        this.indices = Uint32Array.from(indices);
        this.renderToParticle = Int32Array.from(topology.renderToParticle);
        this.vertexOrigin = Int32Array.from({ length: this.renderToParticle.length }, (_, v) => v);
        const renderTriangles = Math.floor(this.indices.length / 3);
        this._simTriangle = new Int32Array(renderTriangles).fill(-1);
        this._simCorner = new Uint8Array(3 * renderTriangles);
        const { triangles, triangleSource } = topology;
        const byParticles = new Map<string, number>();
        for (let s = 0; s < triangleSource.length; s++) {
            const t = triangleSource[s];
            this._simTriangle[t] = s;
            this._simCorner.set([0, 1, 2], 3 * t);
            byParticles.set(tripleKey(triangles[3 * s], triangles[3 * s + 1], triangles[3 * s + 2]), s);
        }
        const map = this.renderToParticle;
        for (let t = 0; t < renderTriangles; t++) {
            if (this._simTriangle[t] >= 0) {
                continue;
            }
            const a = map[this.indices[3 * t]];
            const b = map[this.indices[3 * t + 1]];
            const c = map[this.indices[3 * t + 2]];
            const s = byParticles.get(tripleKey(a, b, c));
            if (s === undefined || a === b || b === c || c === a) {
                continue;
            }
            this._simTriangle[t] = s;
            for (let k = 0; k < 3; k++) {
                const particle = map[this.indices[3 * t + k]];
                this._simCorner[3 * t + k] = triangles[3 * s] === particle ? 0 : triangles[3 * s + 1] === particle ? 1 : 2;
            }
        }
    }

    /** Number of render vertices. */
    public get vertexCount(): number {
        return this.renderToParticle.length;
    }

    /**
     * Brings the binding in step with `simTriangles` (the body's triangles after a tear): a render vertex whose
     * triangles no longer want its particle follows the one they want; one whose triangles want several gets a copy
     * for each extra particle, appended after the existing vertices. Deterministic (render order).
     */
    public follow(simTriangles: ArrayLike<number>): TearBindingChange {
        const indices = this.indices;
        const map = this.renderToParticle;
        const vertexCount = map.length;
        const wanted = new Int32Array(indices.length).fill(-1);
        for (let t = 0; t < this._simTriangle.length; t++) {
            const s = this._simTriangle[t];
            if (s >= 0) {
                for (let k = 0; k < 3; k++) {
                    wanted[3 * t + k] = simTriangles[3 * s + this._simCorner[3 * t + k]];
                }
            }
        }
        // A vertex that no triangle wants on its particle any more moves to the first particle one wants.
        const keeps = new Uint8Array(vertexCount);
        const firstWanted = new Int32Array(vertexCount).fill(-1);
        for (let i = 0; i < indices.length; i++) {
            const r = indices[i];
            const particle = wanted[i];
            if (particle < 0) {
                continue;
            }
            if (particle === map[r]) {
                keeps[r] = 1;
            } else if (firstWanted[r] < 0) {
                firstWanted[r] = particle;
            }
        }
        for (let r = 0; r < vertexCount; r++) {
            if (keeps[r] === 0 && firstWanted[r] >= 0) {
                map[r] = firstWanted[r];
            }
        }
        // The other corners get a copy of their vertex on the particle they want, one copy per vertex and particle.
        const copies = new Map<number, number>();
        const sources: number[] = [];
        const particles: number[] = [];
        let indicesChanged = false;
        for (let i = 0; i < indices.length; i++) {
            const r = indices[i];
            const particle = wanted[i];
            if (particle < 0 || particle === map[r]) {
                continue;
            }
            // Particles stay below 2^26 and vertices below 2^27 in any mesh a browser holds, so the key is exact.
            const key = r * 0x4000000 + particle;
            let copy = copies.get(key);
            if (copy === undefined) {
                copy = vertexCount + sources.length;
                copies.set(key, copy);
                sources.push(r);
                particles.push(particle);
            }
            indices[i] = copy;
            indicesChanged = true;
        }
        if (sources.length > 0) {
            const grownMap = new Int32Array(vertexCount + sources.length);
            grownMap.set(map);
            grownMap.set(particles, vertexCount);
            const grownOrigin = new Int32Array(vertexCount + sources.length);
            grownOrigin.set(this.vertexOrigin);
            for (let k = 0; k < sources.length; k++) {
                grownOrigin[vertexCount + k] = this.vertexOrigin[sources[k]];
            }
            this.renderToParticle = grownMap;
            this.vertexOrigin = grownOrigin;
        }
        return { added: sources.length, sources: Int32Array.from(sources), indicesChanged };
    }
}

/** The same key for the three particles of a triangle in any order. */
function tripleKey(a: number, b: number, c: number): string {
    const lo = Math.min(a, b, c);
    const hi = Math.max(a, b, c);
    return `${lo},${a + b + c - lo - hi},${hi}`;
}
