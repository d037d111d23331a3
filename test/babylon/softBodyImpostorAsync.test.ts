/**
 * SoftBodyImpostor.CreateAsync (real Havok scene, NullEngine): in Node there is no `Worker`, so the meshing runs in
 * time slices on this thread; the body it gives is bit for bit the constructor's, its progress climbs to 1, bad input
 * rejects with the constructor's error, and a mesh disposed mid-build rejects.
 */
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor, type SoftBodyImpostorOptions } from "../../src/babylon/softBodyImpostor";

/** The bytes of every array a body is made of (positions, masses, constraints, render binding), by name. */
function bodyBytes(impostor: SoftBodyImpostor): Record<string, Buffer> {
    const b = impostor.body;
    const arrays: Record<string, ArrayBufferView> = {
        positions: b.positions,
        restPositions: b.restPositions,
        masses: b.masses,
        inverseMasses: b.inverseMasses,
        triangles: b.triangles,
        stretch: b.stretch.indices,
        stretchRest: b.stretch.restLengths,
        shear: b.shear.indices,
        shearRest: b.shear.restLengths,
        tets: b.volume.indices,
        tetRest: b.volume.restVolumes,
    };
    if (impostor.binding) {
        arrays.tetIndex = impostor.binding.tetIndex;
        arrays.weights = impostor.binding.weights;
    }
    if (impostor.surfaceBinding) {
        arrays.surfaceTriangle = impostor.surfaceBinding.triangle;
        arrays.surfaceWeights = impostor.surfaceBinding.weights;
        arrays.surfaceOffsets = impostor.surfaceBinding.offsets;
    }
    return Object.fromEntries(Object.entries(arrays).map(([k, a]) => [k, Buffer.from(a.buffer, a.byteOffset, a.byteLength)]));
}

describe("SoftBodyImpostor.CreateAsync", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    beforeEach(async () => {
        h = await createHavokScene();
        xpbd = new XpbdPlugin(h.scene);
    });
    afterEach(() => h.dispose());

    const sphere = (name: string): Mesh => {
        const mesh = CreateSphere(name, { diameter: 0.8, segments: 16 }, h.scene);
        mesh.position.set(0.3, 1.2, -0.4);
        mesh.rotation.set(0.2, 0.5, 0.1);
        return mesh;
    };

    it.each<[string, SoftBodyImpostorOptions]>([
        ["with tets", { mass: 2, resolution: 9 }],
        ["surface only", { density: 100, resolution: 7, tetrahedra: false, shapeMatching: 0.5 }],
    ])(
        "gives the constructor's body bit for bit (%s)",
        async (_, options) => {
            const sync = new SoftBodyImpostor(sphere("sync"), options, xpbd);
            const built = await SoftBodyImpostor.CreateAsync(sphere("async"), options, xpbd);
            expect(built).toBeInstanceOf(SoftBodyImpostor);
            expect(xpbd.impostors).toContain(built);
            const a = bodyBytes(sync);
            const b = bodyBytes(built);
            expect(Object.keys(b)).toEqual(Object.keys(a));
            for (const key of Object.keys(a)) {
                expect([key, a[key].equals(b[key])]).toEqual([key, true]);
            }
            expect(a.positions.length).toBeGreaterThan(0);
            expect(a.stretch.length).toBeGreaterThan(0);
            expect(built.body.totalMass).toBe(sync.body.totalMass);
            expect(built.meshVolume).toBe(sync.meshVolume);
        },
        60_000,
    );

    it("reports increasing progress ending at 1, and lets the event loop run while it builds", async () => {
        const progress: number[] = [];
        // Timer ticks while the build runs: the thread was handed back between slices.
        let ticks = 0;
        const timer = setInterval(() => ticks++, 1);
        try {
            await SoftBodyImpostor.CreateAsync(sphere("s"), { resolution: 14 }, xpbd, { onProgress: (p) => progress.push(p) });
        } finally {
            clearInterval(timer);
        }
        expect(progress.length).toBeGreaterThan(3);
        for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
        expect(progress[0]).toBeGreaterThanOrEqual(0);
        expect(progress[progress.length - 1]).toBe(1);
        expect(ticks).toBeGreaterThan(1);
    }, 60_000);

    it("rejects bad input with the constructor's error", async () => {
        const cases: [string, () => Mesh, SoftBodyImpostorOptions][] = [
            ["bad resolution", () => sphere("r"), { resolution: 0 }],
            ["surface without shape matching", () => sphere("t"), { tetrahedra: false }],
            ["open mesh", () => CreateSphere("open", { diameter: 1, segments: 8, slice: 0.5 }, h.scene), {}],
            [
                "disposed mesh",
                () => {
                    const m = CreateBox("gone", {}, h.scene);
                    m.dispose();
                    return m;
                },
                {},
            ],
        ];
        for (const [name, mesh, options] of cases) {
            let syncError: unknown;
            try {
                new SoftBodyImpostor(mesh(), options, xpbd);
            } catch (e) {
                syncError = e;
            }
            expect([name, syncError]).toEqual([name, expect.any(Error)]);
            const asyncError: unknown = await SoftBodyImpostor.CreateAsync(mesh(), options, xpbd).then(
                () => undefined,
                (e: unknown) => e,
            );
            expect([name, (asyncError as Error)?.constructor, (asyncError as Error)?.message]).toEqual([
                name,
                (syncError as Error).constructor,
                (syncError as Error).message,
            ]);
        }
    });

    it("rejects when the mesh is disposed before the body is built, and leaves no impostor", async () => {
        const mesh = sphere("doomed");
        let disposedAt = -1;
        const promise = SoftBodyImpostor.CreateAsync(mesh, { resolution: 14 }, xpbd, {
            onProgress: (p) => {
                if (disposedAt < 0 && p > 0.2) {
                    disposedAt = p;
                    mesh.dispose();
                }
            },
        });
        await expect(promise).rejects.toThrow('SoftBodyImpostor.CreateAsync: mesh "doomed" was disposed before its soft body was built');
        expect(disposedAt).toBeGreaterThan(0.2);
        expect(disposedAt).toBeLessThan(1);
        expect(xpbd.impostors.length).toBe(0);
    }, 60_000);
});
