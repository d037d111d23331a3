/** What a contact written by `XpbdWorld.writeContacts` is between. */
export enum ContactKind {
    /** A particle against a collider shape: the point lies on the shape's surface, the normal points out of it. */
    Collider = 0,
    /** A particle of one body against a surface triangle of another: the point lies on the triangle. */
    Soft = 1,
    /** A particle of a body against a surface triangle of its own (`SoftBodyOptions.selfCollision`). */
    Self = 2,
}
