/** How many audit lines the audit page shows at a time (the REST route allows up to 100). */
export const AUDIT_PAGE = 20
