/**
 * The public face of our Inspector services. The Inspector's own `ServiceDefinition` type cannot appear in this
 * package's .d.ts files (the Inspector's typings import a package that is not published for Babylon 9), so the
 * definitions are exported with this structural type; `showXpbdInspector` passes them to `ShowInspector`.
 */

/**
 * An Inspector v2 service definition (`friendlyName`, `produces`, `consumes`, `factory`), to be listed in
 * `ShowInspector(scene, { serviceDefinitions })` (cast to the Inspector's type) or, simpler, opened with
 * `showXpbdInspector`.
 */
export interface XpbdInspectorServiceDefinition {
    /** Name shown when debugging the Inspector's service container. */
    readonly friendlyName: string;
    /** Identities of the services it produces. */
    readonly produces?: readonly symbol[];
    /** Identities of the services it consumes (passed to the factory in this order). */
    readonly consumes?: readonly symbol[];
    /** Creates the service from the consumed services. */
    readonly factory: (...services: never[]) => unknown;
}
