import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Jest global setup: points the Vulkan loader at SwiftShader, the CPU Vulkan driver Debian's `chromium` package
 * ships, so that Dawn (the `webgpu` package) finds an adapter on a machine without a GPU. Dawn reads the variable
 * when it creates its instance, in this process or a worker started after this; a test's own `process.env` is a copy
 * that native code never sees, which is why this cannot live in the test files. A value already set is kept (a
 * machine with a real GPU driver).
 */
export default function vulkanSetup(): void {
    if (process.env.VK_ICD_FILENAMES || process.env.VK_DRIVER_FILES) {
        return;
    }
    const manifest = swiftShaderManifest();
    if (manifest) {
        process.env.VK_ICD_FILENAMES = manifest;
    }
}

/** Where Debian's chromium puts the manifest, else wherever `dpkg` says it is; null when there is none. */
function swiftShaderManifest(): string | null {
    const known = "/usr/lib/chromium/vk_swiftshader_icd.json";
    if (existsSync(known)) {
        return known;
    }
    try {
        const listed = execFileSync("dpkg", ["-L", "chromium-common", "chromium"], {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        return listed.split("\n").find((line) => line.endsWith("vk_swiftshader_icd.json")) ?? null;
    } catch {
        return null;
    }
}
