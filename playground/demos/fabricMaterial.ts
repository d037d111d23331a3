import type { Material } from "@babylonjs/core/Materials/material";
import { Constants } from "@babylonjs/core/Engines/constants";
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { DynamicTexture } from "@babylonjs/core/Materials/Textures/dynamicTexture";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { Scene } from "@babylonjs/core/scene";

/**
 * Share of the direct light falling on one face of a thin fabric that leaves the other face, diffusely (thin cotton
 * or silk lets through roughly a third to a half). Without it the face turned from the sun gets the sky's fill alone
 * and a cape seen from that side reads as a dark hole.
 */
export const FABRIC_TRANSMISSION = 0.4;

/** Threads per side of the weave tile; the tile repeats `repeat` times over the mesh's 0–1 UV range. */
const THREADS = 8;
/** Texels per thread. */
const THREAD_TEXELS = 8;

/**
 * Diffuse light through a thin sheet: every light's Lambert term `max(0, n·l)` becomes
 * `max(0, n·l) + t·max(0, −n·l)`, so the face turned away from a light shows `t` of what the lit face gets (the
 * shadow map still blocks what an occluder hides). It rewrites the one line of Babylon's shared lighting functions
 * that computes the term, in GLSL and in WGSL; with two-sided lighting `n` faces the viewer, so both faces get it.
 */
class ThinSheetTransmission extends MaterialPluginBase {
    public constructor(material: Material) {
        super(material, "ThinSheetTransmission", 200, undefined, true, true);
    }

    public override getClassName(): string {
        return "ThinSheetTransmission";
    }

    public override isCompatible(): boolean {
        return true;
    }

    public override getCustomCode(shaderType: string, shaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
        if (shaderType !== "fragment") return null;
        const t = FABRIC_TRANSMISSION.toFixed(3);
        // A key starting with "!" is a regular expression over the shader once its includes are resolved.
        return shaderLanguage === ShaderLanguage.WGSL
            ? {
                  "!var ndl: f32=max\\(0\\.,dot\\(vNormal,lightVectorW\\)\\);": `var ndl: f32=max(0.,dot(vNormal,lightVectorW))+${t}*max(0.,-dot(vNormal,lightVectorW));`,
              }
            : {
                  "!float ndl=max\\(0\\.,dot\\(vNormal,lightVectorW\\)\\);": `float ndl=max(0.,dot(vNormal,lightVectorW))+${t}*max(0.,-dot(vNormal,lightVectorW));`,
              };
    }
}

/**
 * A plain weave in grey (0.8–1), drawn once into a canvas: threads alternately over and under, each rounded across
 * its width and rising between crossings. Multiplied by the material's diffuse colour it gives the cloth a texture
 * without any image download.
 */
function weaveTexture(scene: Scene, name: string, repeat: number): DynamicTexture {
    const size = THREADS * THREAD_TEXELS;
    const texture = new DynamicTexture(name, { width: size, height: size }, scene, true);
    const context = texture.getContext();
    const image = context.getImageData(0, 0, size, size);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            const warpOnTop = (Math.floor(x / THREAD_TEXELS) + Math.floor(y / THREAD_TEXELS)) % 2 === 0;
            const across = ((warpOnTop ? x : y) % THREAD_TEXELS) + 0.5;
            const along = ((warpOnTop ? y : x) % THREAD_TEXELS) + 0.5;
            const crown = Math.sin((Math.PI * across) / THREAD_TEXELS);
            const rise = Math.sin((Math.PI * along) / THREAD_TEXELS);
            const value = Math.round(255 * (0.8 + 0.2 * crown * (0.6 + 0.4 * rise)));
            const i = 4 * (y * size + x);
            image.data[i] = image.data[i + 1] = image.data[i + 2] = value;
            image.data[i + 3] = 255;
        }
    }
    context.putImageData(image, 0, 0);
    texture.update(false);
    // A dynamic texture clamps by default; the weave tiles.
    texture.wrapU = texture.wrapV = Constants.TEXTURE_WRAP_ADDRESSMODE;
    texture.uScale = texture.vScale = repeat;
    return texture;
}

/**
 * The material of every cloth in the demos: two-sided (no culling; each face lit with its own normal), light
 * passing through the sheet ({@link FABRIC_TRANSMISSION}), a procedural weave, and a low, broad highlight (fabric
 * is matte).
 * @param repeat - Weave tiles over the mesh's UV range (each tile is 8 threads); default 16.
 */
export function fabric(scene: Scene, name: string, color: Color3, repeat = 16): StandardMaterial {
    const m = new StandardMaterial(name, scene);
    m.diffuseColor = color;
    m.diffuseTexture = weaveTexture(scene, `${name}Weave`, repeat);
    m.specularColor = new Color3(0.05, 0.05, 0.05);
    m.specularPower = 12;
    m.backFaceCulling = false;
    m.twoSidedLighting = true;
    new ThinSheetTransmission(m);
    return m;
}
