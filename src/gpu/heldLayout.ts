/**
 * vec4s of the held solve's buffer per particle (see `heldContactsShader.ts`): three of contact state, one of the
 * contact list, one of a collider attachment's tether impulses (a particle has at most one attachment). Its own
 * module: the buffers that hold it and the shader that reads it both import it, and the shader imports much of the
 * rest.
 */
export const HELD_VEC4S = 5;
