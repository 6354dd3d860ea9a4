/**
 * The optional tool groups, off unless FORGE_ENABLE_TOOLS names them: they act on this machine (its
 * files, its programs, a browser), so nobody gets them by accident.
 */
export const OPTIONAL_TOOL_GROUPS = ['files', 'git', 'shell', 'browser'] as const;

export type OptionalToolGroup = (typeof OPTIONAL_TOOL_GROUPS)[number];
