/** The tool's version, printed in every report (a test keeps it equal to package.json's). */
export const VERSION = '0.1.0'
export const TOOL_NAME = 'retrieval-gate'
