/**
 * Worker entry of `buildSoftBodyMeshingAsync`: runs `softBodyMeshingSteps` on the posted input, posting its
 * progress (at most every 1%), then its result or its error. Imports nothing but the meshing code.
 */
import { softBodyMeshingSteps, type SoftBodyMeshingInput } from "./softBodyMeshing.js";
import type { SoftBodyMeshingMessage } from "./softBodyMeshingMessage.js";

const scope = self as unknown as {
    onmessage: ((event: MessageEvent<SoftBodyMeshingInput>) => void) | null;
    postMessage(message: SoftBodyMeshingMessage): void;
};

scope.onmessage = (event) => {
    try {
        const steps = softBodyMeshingSteps(event.data);
        let reported = 0;
        for (;;) {
            const r = steps.next();
            if (r.done) {
                scope.postMessage({ type: "done", result: r.value });
                return;
            }
            if (r.value >= reported + 0.01) {
                reported = r.value;
                scope.postMessage({ type: "progress", progress: r.value });
            }
        }
    } catch (error) {
        const e = error instanceof Error ? error : new Error(String(error));
        scope.postMessage({ type: "error", name: e.name, message: e.message });
    }
};
