/** What the soft-body meshing worker posts back to the page. */
import type { SoftBodyMeshing } from "./softBodyMeshing.js";

/** A message from the soft-body meshing worker: progress in [0, 1], the result, or the error it threw (its class name and message). */
export type SoftBodyMeshingMessage =
    { type: "progress"; progress: number } | { type: "done"; result: SoftBodyMeshing } | { type: "error"; name: string; message: string };
