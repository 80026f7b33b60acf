/**
 * The CLI's override options (an exam input the command line cannot fetch, given as a file: --reference) are
 * declared by the capability whose input specs name them (`overrides`), and the gate's usage lists each with its
 * help (src/commands/usage.ts derives the lines, src/load.ts cliOverrides). An input spec that names an override
 * its capability does not declare would be an option the parser refuses and the usage never shows: this fails.
 */
import { describe, expect, it } from '@jest/globals'
import type { CliOverride } from '../../src/capabilities/contract.js'
import { activeCapabilities } from '../../src/capabilities/registry.js'
import { COMMANDS, type OptionDoc } from '../../src/commands/usage.js'
import { cliOverrides, rulesFromText } from '../../src/load.js'

const rules = (reference: string): string => `version: 1
metrics:
  recall@10: { better: higher, range: [0, 1] }
reference: ${reference}
checks:
  - name: recall holds
    metric: recall@10
    non_inferior: { margin: 0.02 }
    budget: 0.01
`

/** Every form of the rules that switches on an input spec with an override. */
const FORMS = {
  'at a ref': '{ name: v1.4, path: eval/release/rows.csv, ref: v1.4 }',
  'in an artifact': '{ name: v1.4, artifact: { name: release-rows, workflow: "55", ref: v1.4 } }'
}

const GATE_OPTIONS = COMMANDS.gate.options as Record<string, OptionDoc>

describe('the CLI override options come from the capabilities that name them', () => {
  for (const [form, reference] of Object.entries(FORMS)) {
    it(`every override an input spec names (the reference ${form}) is declared, with its help in the usage`, () => {
      const parsed = rulesFromText(rules(reference), 'rules.yml')
      const named: CliOverride[] = []
      for (const { capability, config } of activeCapabilities(parsed))
        for (const spec of capability.inputs(config, parsed))
          if ((spec.kind === 'file' || spec.kind === 'artifact') && spec.override !== undefined) {
            named.push(spec.override)
            expect(capability.overrides ?? []).toContainEqual(spec.override)
          }
      expect(named.map((o) => o.option)).toContain('reference')
      for (const override of named) {
        expect(override.help).not.toBe('')
        expect(GATE_OPTIONS[override.option]).toEqual({ type: 'string', value: '<file>', description: override.help })
      }
    })
  }

  it("the gate's usage lists each declared override once, with its help", () => {
    expect(cliOverrides().map((o) => o.option)).toEqual(['reference'])
    for (const o of cliOverrides()) expect(GATE_OPTIONS).toHaveProperty([o.option, 'description'], o.help)
  })
})
