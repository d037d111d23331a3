/** The package version, kept equal to `version` in package.json. */
export const VERSION = "0.1.0";
