/** The types of jest.config.js's exports, for the test that checks the fast and slow sets (test-sets.test.ts). */
export declare const base: Record<string, unknown>
export declare const SLOW: string
export declare const HEAVY: string[]
export declare const HEAVY_PATTERNS: string[]
declare const config: Record<string, unknown>
export default config
