/** A closed cloth holding gas, shared by the core's and the WebGPU solver's gas-pressure tests. */
import { CreateIcoSphereVertexData } from "@babylonjs/core/Meshes/Builders/icoSphereBuilder";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";
import { buildClothTopology } from "../../src/meshing/clothTopology";

/** Radius (m) of {@link balloon}. */
export const BALLOON_RADIUS = 0.3;

/** A closed icosphere cloth (92 particles, 180 triangles) of `mass` kg and {@link BALLOON_RADIUS}, its centre `lift` m up. */
export function balloon(options: SoftBodyOptions, lift = 0, mass = 1): SoftBody {
    const mesh = CreateIcoSphereVertexData({ radius: BALLOON_RADIUS, subdivisions: 3, flat: false });
    const t = buildClothTopology(mesh.positions!, mesh.indices!);
    const positions = Float64Array.from(t.positions);
    for (let i = 1; i < positions.length; i += 3) {
        positions[i] += lift;
    }
    return new SoftBody(
        { positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass },
        { bendCompliance: 10, allowSleep: false, ...options },
    );
}
