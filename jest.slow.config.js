/**
 * The slow tests (`npm run test:slow`): the `*.slow.test.ts` files and the heavy ones (HEAVY), which jest.config.js (the fast loop,
 * `npm test`) leaves out. See jest.config.js for why there are two sets and how the split is checked.
 */
import { base, HEAVY_PATTERNS, SLOW } from './jest.config.js'

export default {
  ...base,
  testRegex: [SLOW, ...HEAVY_PATTERNS]
}
