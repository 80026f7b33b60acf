/**
 * An amount of a metric as the rules write it, for margins and budgets alike: a number in the metric's own units
 * (0.005), or a percentage of a mean as a string ("20%"). One schema and one parser, so "5%" means the same
 * thing wherever the rules accept an amount.
 */
export const AMOUNT_SCHEMA = {
  oneOf: [
    { type: 'number', minimum: 0 },
    {
      type: 'string',
      pattern: '^(?:100|[0-9]{1,2})(?:\\.[0-9]+)?%$',
      title: 'a number in the metric\'s units (0.02) or a percentage of the mean, at most 100% ("20%")'
    }
  ]
} as const

/** A margin as written: absolute in metric units, or relative to the baseline mean. */
export interface Margin {
  value: number
  relative: boolean
  /** As the user wrote it, for the report ("20%", "0.005"). */
  text: string
}

/** The amount as a margin: `relative` for a percentage (its value a share: "20%" -> 0.2), the text as written. */
export function parseAmount(value: number | string): Margin {
  if (typeof value === 'string') return { value: Number(value.slice(0, -1)) / 100, relative: true, text: value }
  return { value, relative: false, text: String(value) }
}
