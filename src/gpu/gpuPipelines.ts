import { AERODYNAMICS_WGSL } from "./aerodynamicsShader.js";
import { BODY_CONTACTS_WGSL, BODY_TRANSFER_WGSL } from "./bodyContactsShader.js";
import { COLLIDER_MOTION_WGSL } from "./colliderMotionShader.js";
import { ConstraintKernel } from "./bodyRecords.js";
import { DIHEDRAL_BEND_WGSL, DISTANCE_WGSL, ISOMETRIC_BEND_WGSL, STRAIN_LIMIT_WGSL, VOLUME_WGSL } from "./constraintShaders.js";
import { DAMPING_WGSL } from "./dampingShader.js";
import { FIGURES_WGSL } from "./figuresShader.js";
import { GAS_PRESSURE_WGSL } from "./gasPressureShader.js";
import { HELD_CONTACTS_WGSL } from "./heldContactsShader.js";
import { PARTICLE_PASS_WGSL } from "./particlePassShader.js";
import { PENDING_IMPULSE_KERNELS, PENDING_IMPULSES_WGSL, type PendingImpulseKernel } from "./pendingImpulses.js";
import { PREDICT_WGSL } from "./predictShader.js";
import { RENDER_MESH_WGSL } from "./renderMeshShader.js";
import { SELF_COLLISION_WGSL } from "./selfCollisionShader.js";
import { SHAPE_MATCHING_WGSL } from "./shapeMatchingShader.js";
import { SHARED_IMPULSE_KERNELS, SHARED_IMPULSES_WGSL, type SharedImpulseKernel } from "./sharedColliderMotion.js";

/** WebGPU's `GPUShaderStage.COMPUTE` (the spec's value; the global may not exist outside a browser). */
const COMPUTE_STAGE = 4;

/** A binding of an explicit layout: a uniform block read at a dynamic offset or at 0 (`fixed-uniform`), or a storage buffer. */
type Binding = "uniform" | "fixed-uniform" | "storage" | "read-only-storage";

/** The bind group layouts of the kernel families, in binding order. */
const LAYOUTS = {
    predict: [
        "uniform",
        "storage",
        "storage",
        "storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "read-only-storage",
    ],
    constraint: ["uniform", "uniform", "storage", "storage", "read-only-storage"],
    gas: ["uniform", "uniform", "storage", "storage", "read-only-storage", "read-only-storage", "read-only-storage", "storage"],
    particle: [
        "uniform",
        "uniform",
        "storage",
        "read-only-storage",
        "storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
    ],
    motion: ["uniform", "uniform", "storage", "storage"],
    held: [
        "uniform",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "storage",
        "read-only-storage",
    ],
    aerodynamics: [
        "uniform",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
    ],
    damping: ["uniform", "read-only-storage", "storage", "read-only-storage", "storage"],
    figures: [
        "fixed-uniform",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "storage",
    ],
    render: [
        "fixed-uniform",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "storage",
        "read-only-storage",
    ],
    selfCollision: [
        "uniform",
        "fixed-uniform",
        "storage",
        "read-only-storage",
        "read-only-storage",
        "storage",
        "storage",
        "storage",
        "storage",
    ],
    bodyContacts: ["fixed-uniform", "storage", "read-only-storage", "read-only-storage", "storage", "storage", "storage", "storage"],
    bodyTransfer: ["fixed-uniform", "storage", "read-only-storage", "storage", "storage", "storage"],
    sharedImpulses: ["fixed-uniform", "storage", "storage"],
    pendingImpulses: ["fixed-uniform", "storage", "storage", "storage"],
} satisfies Record<string, Binding[]>;

/** A kernel family's layout name. */
export type LayoutName = keyof typeof LAYOUTS;

/** Every compiled kernel of the solver and the layouts their bind groups follow. */
export interface SolverPipelines {
    readonly layouts: Readonly<Record<LayoutName, GPUBindGroupLayout>>;
    readonly predict: GPUComputePipeline;
    readonly setInverseMasses: GPUComputePipeline;
    /** Each kernel's projection (shape matching's pull, after {@link shapeMatchingFit}; the gas's push, after {@link gasSum}). */
    readonly constraints: Readonly<Record<ConstraintKernel, GPUComputePipeline>>;
    /** Shape matching's fit, one workgroup before each pull (see `shapeMatchingShader.ts`). */
    readonly shapeMatchingFit: GPUComputePipeline;
    /** The gas's volume and multiplier, one workgroup before each push (see `gasPressureShader.ts`). */
    readonly gasSum: GPUComputePipeline;
    /** One run of the strain limit's sweep (see `strainLimitPass.ts`). */
    readonly strainLimit: GPUComputePipeline;
    readonly particlePass: GPUComputePipeline;
    /** Dynamic colliders moved within the step (see `colliderMotionShader.ts`). */
    readonly colliderMotion: GPUComputePipeline;
    /** The held solve of dynamic colliders on held particles (see `heldContactsShader.ts`). */
    readonly heldContacts: GPUComputePipeline;
    readonly triangleForces: GPUComputePipeline;
    readonly gatherForces: GPUComputePipeline;
    readonly rigidMotion: GPUComputePipeline;
    readonly dampDeformation: GPUComputePipeline;
    /** Writes a render mesh's positions (see `renderMeshShader.ts`). */
    readonly renderPositions: GPUComputePipeline;
    /** Writes a render mesh's normals from the positions written (see `renderMeshShader.ts`). */
    readonly renderNormals: GPUComputePipeline;
    /** The per-particle residuals of the body's figures (see `figuresShader.ts`). */
    readonly figureResiduals: GPUComputePipeline;
    /** The body's scalar figures, reduced by one workgroup (see `figuresShader.ts`). */
    readonly figureReduce: GPUComputePipeline;
    /** Self-collision's hash rebuild and contact projection (see `selfCollisionShader.ts`). */
    readonly selfCollision: Readonly<Record<SelfCollisionKernel, GPUComputePipeline>>;
    /** The contacts between a group's bodies: the hash's rebuild and the projection (see `bodyContactsShader.ts`). */
    readonly bodyContacts: Readonly<Record<BodyContactKernel, GPUComputePipeline>>;
    /** A body's particles into a group's buffers, and its contact moves back (see `bodyContactsShader.ts`). */
    readonly bodyTransfer: Readonly<Record<"gather" | "scatter", GPUComputePipeline>>;
    /** A group's dynamic colliders moved once from every body's impulses (see `sharedColliderMotion.ts`). */
    readonly sharedImpulses: Readonly<Record<SharedImpulseKernel, GPUComputePipeline>>;
    /** The prediction of the impulses in flight to the host (see `pendingImpulses.ts`). */
    readonly pendingImpulses: Readonly<Record<PendingImpulseKernel, GPUComputePipeline>>;
}

/** The self-collision kernels, by entry point (see `selfCollisionShader.ts`). */
const SELF_COLLISION_KERNELS = [
    "clearCells",
    "countCells",
    "sumChunks",
    "scanCells",
    "scatterCells",
    "projectContacts",
    "applyCorrections",
] as const;

/** A self-collision kernel's entry point. */
export type SelfCollisionKernel = (typeof SELF_COLLISION_KERNELS)[number];

/** The group contacts' kernels, by entry point (see `bodyContactsShader.ts`). */
const BODY_CONTACT_KERNELS = ["clearCells", "countCells", "sumChunks", "scanCells", "scatterCells", "projectPairs"] as const;

/** A group contacts' kernel's entry point. */
export type BodyContactKernel = (typeof BODY_CONTACT_KERNELS)[number];

/** Each device's kernels, compiled once and shared by every body on it. */
const compiled = new WeakMap<GPUDevice, Promise<SolverPipelines>>();
/** The kernels of {@link compiled} that finished compiling, for hosts that build bodies inside a frame. */
const ready = new WeakMap<GPUDevice, SolverPipelines>();

/**
 * The solver's kernels for `device`, compiled on first use. Rejects with the compiler's messages when a shader does
 * not compile (which would otherwise surface only as an uncaptured device error, long after).
 */
export function solverPipelines(device: GPUDevice): Promise<SolverPipelines> {
    let pipelines = compiled.get(device);
    if (!pipelines) {
        pipelines = createSolverPipelines(device);
        compiled.set(device, pipelines);
        // A failed compilation is not kept: the next body tries again (and reports again).
        pipelines.then(
            (done) => ready.set(device, done),
            () => compiled.delete(device),
        );
    }
    return pipelines;
}

/** The kernels for `device` if {@link solverPipelines} finished compiling them, else undefined. */
export function compiledSolverPipelines(device: GPUDevice): SolverPipelines | undefined {
    return ready.get(device);
}

async function createSolverPipelines(device: GPUDevice): Promise<SolverPipelines> {
    const layouts = {} as Record<LayoutName, GPUBindGroupLayout>;
    for (const name of Object.keys(LAYOUTS) as LayoutName[]) {
        layouts[name] = device.createBindGroupLayout({
            label: `xpbd ${name}`,
            entries: LAYOUTS[name].map((type, binding) => ({
                binding,
                visibility: COMPUTE_STAGE,
                buffer: type === "uniform" ? { type, hasDynamicOffset: true } : { type: type === "fixed-uniform" ? "uniform" : type },
            })),
        });
    }
    const modules = new Map<string, Promise<GPUShaderModule>>();
    const compile = (code: string, label: string): Promise<GPUShaderModule> => {
        let module = modules.get(code);
        if (!module) {
            module = checkedModule(device, code, label);
            modules.set(code, module);
        }
        return module;
    };
    const pipeline = async (layout: LayoutName, code: string, entryPoint: string, label: string): Promise<GPUComputePipeline> =>
        device.createComputePipelineAsync({
            label: `xpbd ${label}`,
            layout: device.createPipelineLayout({ bindGroupLayouts: [layouts[layout]] }),
            compute: { module: await compile(code, label), entryPoint },
        });
    const [
        predict,
        setInverseMasses,
        distance,
        isometric,
        dihedral,
        volume,
        particlePass,
        triangleForces,
        gatherForces,
        rigidMotion,
        dampDeformation,
        renderPositions,
        renderNormals,
        figureResiduals,
        figureReduce,
        shapeMatchingFit,
        shapeMatchingPull,
        strainLimit,
        gasSum,
        gasPush,
        colliderMotion,
        heldContacts,
        gather,
        scatter,
        collect,
        spread,
        restore,
        record,
        predictPending,
        carry,
        ...kernels
    ] = await Promise.all([
        pipeline("predict", PREDICT_WGSL, "predict", "predict"),
        pipeline("predict", PREDICT_WGSL, "setInverseMasses", "inverse masses"),
        pipeline("constraint", DISTANCE_WGSL, "main", "distance"),
        pipeline("constraint", ISOMETRIC_BEND_WGSL, "main", "isometric bend"),
        pipeline("constraint", DIHEDRAL_BEND_WGSL, "main", "dihedral bend"),
        pipeline("constraint", VOLUME_WGSL, "main", "volume"),
        pipeline("particle", PARTICLE_PASS_WGSL, "main", "particle pass"),
        pipeline("aerodynamics", AERODYNAMICS_WGSL, "triangleForces", "triangle forces"),
        pipeline("aerodynamics", AERODYNAMICS_WGSL, "gatherForces", "gather forces"),
        pipeline("damping", DAMPING_WGSL, "rigidMotion", "rigid motion"),
        pipeline("damping", DAMPING_WGSL, "dampDeformation", "damp deformation"),
        pipeline("render", RENDER_MESH_WGSL, "positions", "render positions"),
        pipeline("render", RENDER_MESH_WGSL, "normals", "render normals"),
        pipeline("figures", FIGURES_WGSL, "residuals", "figure residuals"),
        pipeline("figures", FIGURES_WGSL, "reduce", "figure reduction"),
        pipeline("constraint", SHAPE_MATCHING_WGSL, "fit", "shape matching fit"),
        pipeline("constraint", SHAPE_MATCHING_WGSL, "apply", "shape matching pull"),
        pipeline("constraint", STRAIN_LIMIT_WGSL, "main", "strain limit"),
        pipeline("gas", GAS_PRESSURE_WGSL, "sum", "gas sum"),
        pipeline("gas", GAS_PRESSURE_WGSL, "push", "gas push"),
        pipeline("motion", COLLIDER_MOTION_WGSL, "main", "collider motion"),
        pipeline("held", HELD_CONTACTS_WGSL, "main", "held contacts"),
        pipeline("bodyTransfer", BODY_TRANSFER_WGSL, "gather", "group gather"),
        pipeline("bodyTransfer", BODY_TRANSFER_WGSL, "scatter", "group scatter"),
        ...SHARED_IMPULSE_KERNELS.map((entry) => pipeline("sharedImpulses", SHARED_IMPULSES_WGSL, entry, `group impulses ${entry}`)),
        ...PENDING_IMPULSE_KERNELS.map((entry) => pipeline("pendingImpulses", PENDING_IMPULSES_WGSL, entry, `pending impulses ${entry}`)),
        ...BODY_CONTACT_KERNELS.map((entry) => pipeline("bodyContacts", BODY_CONTACTS_WGSL, entry, `group contacts ${entry}`)),
        ...SELF_COLLISION_KERNELS.map((entry) => pipeline("selfCollision", SELF_COLLISION_WGSL, entry, `self-collision ${entry}`)),
    ]);
    return {
        layouts,
        predict,
        setInverseMasses,
        constraints: {
            [ConstraintKernel.Distance]: distance,
            [ConstraintKernel.IsometricBend]: isometric,
            [ConstraintKernel.DihedralBend]: dihedral,
            [ConstraintKernel.Volume]: volume,
            [ConstraintKernel.ShapeMatching]: shapeMatchingPull,
            [ConstraintKernel.Gas]: gasPush,
        },
        shapeMatchingFit,
        gasSum,
        strainLimit,
        particlePass,
        colliderMotion,
        heldContacts,
        triangleForces,
        gatherForces,
        rigidMotion,
        dampDeformation,
        renderPositions,
        renderNormals,
        figureResiduals,
        figureReduce,
        bodyContacts: Object.fromEntries(BODY_CONTACT_KERNELS.map((entry, k) => [entry, kernels[k]])) as Record<
            BodyContactKernel,
            GPUComputePipeline
        >,
        bodyTransfer: { gather, scatter },
        sharedImpulses: { collect, spread, restore },
        pendingImpulses: { record, predict: predictPending, carry },
        selfCollision: Object.fromEntries(
            SELF_COLLISION_KERNELS.map((entry, k) => [entry, kernels[BODY_CONTACT_KERNELS.length + k]]),
        ) as Record<SelfCollisionKernel, GPUComputePipeline>,
    };
}

async function checkedModule(device: GPUDevice, code: string, label: string): Promise<GPUShaderModule> {
    const module = device.createShaderModule({ label: `xpbd ${label}`, code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === "error");
    if (errors.length > 0) {
        throw new Error(
            `WebGPU shader "${label}" does not compile: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join("; ")}`,
        );
    }
    return module;
}
