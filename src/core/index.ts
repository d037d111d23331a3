/**
 * `babylon-xpbd/core`: the XPBD engine on typed arrays, without Babylon. A world ({@link XpbdWorld}) steps soft
 * bodies ({@link SoftBody}) against rigid colliders ({@link Collider}); the Babylon plugin drives one of these. Use it
 * directly for headless simulation, tools and tests. Besides the engine's API it exports the building blocks the
 * Babylon layer uses (argument checks, constraint sets, the substep context): those follow the engine's version but
 * are documented only in their TSDoc.
 */
export type { ColliderShapeDescriptor, QuaternionTuple, Vector3Tuple } from "./colliderShapeDescriptor.js";
export type { SoftBodyDescriptor } from "./softBodyDescriptor.js";
export { BendConstraints, dihedralAngle, writeHinge } from "./bendConstraints.js";
export { ClothTearing, TEAR_CAPACITY_ELEMENT, TEAR_RECORD_SIZE } from "./clothTearing.js";
export type { ConstraintSet } from "./constraintSet.js";
export { ISOMETRIC_BEND_MAX_REST_ANGLE, IsometricBendConstraints } from "./isometricBendConstraints.js";
export { COMPLIANCE_AT_ZERO_STIFFNESS, complianceFromStiffness, pinComplianceFromWeight } from "./stiffness.js";
export { Collider, ColliderMotion, type ColliderOptions } from "./collider.js";
export { ColliderAttachments } from "./colliderAttachments.js";
export { ColliderGrid } from "./colliderGrid.js";
export { ColliderShape, ColliderShapeKind, THIN_BOX_HALF_EXTENT } from "./colliderShape.js";
export { DistanceConstraints } from "./distanceConstraints.js";
export { KernelMemory, PLAIN_ARRAYS, type ArrayAllocator, type SolverKernels } from "./kernelMemory.js";
export { EventQueue, SoftBodyEventType } from "./eventQueue.js";
export { ContactKind } from "./contactKind.js";
export { ParticleContacts } from "./particleContacts.js";
export { readyToSleep, SOFT_CONTACT_CAPACITY_ELEMENT, SoftContacts } from "./softContacts.js";
export { PinConstraints } from "./pinConstraints.js";
export { DEFAULT_GRAB_STIFFNESS, ParticleGrab } from "./particleGrab.js";
export { rayHitsBody } from "./rayPick.js";
export { SoftBody } from "./softBody.js";
export { RotationFit } from "./rotationFit.js";
export { ShapeMatching } from "./shapeMatching.js";
export { GasPressure, openEdgeCount } from "./gasPressure.js";
export { SOFT_BODY_DEFAULTS, type SoftBodyOptions } from "./softBodyOptions.js";
export type { BendModel, BendSet } from "./bendSet.js";
export { StepStats } from "./stepStats.js";
export { strainLimitActive } from "./strainLimit.js";
export { measureAsleep, measureBend, measureBody, measureCounts } from "./bodyMeasures.js";
export { SubstepContext } from "./substepContext.js";
export { TETHER_ANCHORS, TetherConstraints } from "./tetherConstraints.js";
export { TriangleMeshShape, type TriangleMeshData } from "./triangleMeshShape.js";
export { VolumeConstraints, tetVolume } from "./volumeConstraints.js";
export { MAX_COORDINATE, RESTITUTION_THRESHOLD, XpbdWorld } from "./xpbdWorld.js";
export type { XpbdWorldOptions } from "./xpbdWorldOptions.js";
export { computeAerodynamicForces, DEFAULT_AIR_DENSITY, DEFAULT_DRAG_COEFFICIENT, DEFAULT_LIFT_COEFFICIENT } from "./aerodynamics.js";
export { closestPointOnTriangle } from "./closestPointOnTriangle.js";
export { enclosedVolume } from "./enclosedVolume.js";
export { lumpParticleMasses } from "./particleMasses.js";
export {
    booleanValue,
    describeValue,
    finiteNonNegative,
    finiteNumber,
    finiteVector3,
    knownKeys,
    mask32,
    positiveFinite,
    positiveInteger,
    ratioAboveOne,
    strainLimitValue,
    unitInterval,
} from "./argumentChecks.js";
export { getDefaults, LATEST_DEFAULTS_VERSION, resolveDefaultsVersion } from "./defaults.js";
export {
    DEFAULTS_TABLE,
    type ClothDefaults,
    type ColliderDefaults,
    type ImpostorDefaults,
    type RopeDefaults,
    type SoftBodyImpostorDefaults,
    type WorldDefaults,
    type XpbdDefaults,
} from "./defaultsTable.js";
export { XpbdDataError, type XpbdDataErrorReason } from "./snapshotError.js";
export {
    bodyFingerprint,
    captureWorldState,
    checkBodyFits,
    restoreWorldState,
    SNAPSHOT_FORMAT_VERSION,
    validateSnapshot,
    type CaptureWorldStateOptions,
    type RestoreWorldStateOptions,
    type XpbdBodySnapshot,
    type XpbdColliderSnapshot,
    type XpbdSnapshot,
} from "./worldSnapshot.js";
export type { XpbdTopologySnapshot } from "./topologySnapshot.js";
export { DEFAULT_SNAPSHOT_MAX_BYTES, parseSnapshot, serializeSnapshot, type ParseSnapshotOptions } from "./snapshotFormat.js";
export { crc32 } from "./checksum.js";
export {
    REPLAY_FORMAT_VERSION,
    ReplayTarget,
    stateChecksum,
    type XpbdReplay,
    type XpbdReplayBody,
    type XpbdReplayCollider,
    type XpbdReplayPatch,
    type XpbdReplayStep,
} from "./replayData.js";
export { XpbdWorldRecorder, type XpbdWorldRecorderOptions } from "./worldRecorder.js";
export { XpbdReplayer, type XpbdReplayerOptions, type XpbdReplayReport } from "./replayer.js";
export { parseReplay, serializeReplay, type ParseReplayOptions } from "./replayFormat.js";
export {
    diagnose,
    COLLAPSE_THRESHOLD,
    JITTER_THICKNESSES,
    PIN_STRETCH_THRESHOLD,
    SLOW_STEP_PROJECTIONS,
    STRETCH_THRESHOLD,
    type DiagnosisFinding,
    type DiagnosisRule,
} from "./diagnosis.js";
