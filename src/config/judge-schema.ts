/**
 * The `judge` key of the rules file's JSON Schema: human-labelled anchors that check the LLM judge (agreement,
 * drift between the sides' judges, repeatability, position consistency) and the length-bias diagnostic. Kept in
 * its own file and spread into RULES_SCHEMA by src/config/schema.ts, beside the other trust keys.
 */
const share = (description: string) => ({ type: 'number', minimum: 0, maximum: 1, description }) as const

export const JUDGE_RULES_PROPERTIES = {
  judge: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description: 'Is the ruler still the same? Checks the LLM judge against human-labelled anchors (docs/trust.md, "Judge anchors") and shows its diagnostics.',
    properties: {
      anchors: {
        type: 'string',
        minLength: 1,
        description:
          'Anchor file (JSON Lines, or CSV by its .csv name): one scoring per record with id, human, judge (or baseline_judge and candidate_judge when the sides use different judges), optional *_swapped labels and attributes. Part of the exam: read at the base commit in a pull request.'
      },
      weights: { enum: ['none', 'linear', 'quadratic'], description: "Cohen's kappa weights: none (default; nominal labels), linear or quadratic (graded labels)." },
      labels: {
        type: 'array',
        minItems: 2,
        maxItems: 100,
        uniqueItems: true,
        items: { type: ['string', 'number'] },
        description: 'The label scale in order (e.g. [0, 1, 2, 3]). Default: the labels seen in the file, sorted (numerically when all are numbers). Name it when a grade may be absent from the file.'
      },
      per_slice: { type: 'string', minLength: 1, description: 'Anchor attribute (e.g. task): agreement is computed and checked in every value of it, not only overall.' },
      min_items: {
        type: 'integer',
        minimum: 2,
        description: 'Fewest anchor items a slice needs for its rules to be decided; fewer: inconclusive. Default 40 (below it no kappa interval holds its level, docs/statistics.md).'
      },
      min_kappa: { type: 'number', minimum: -1, maximum: 1, description: "Floor of Cohen's kappa (judge vs human) for every judge in use, in every slice." },
      max_drop: share(
        "Judge drift: how far the candidate's judge's kappa may fall below the baseline's, decided on the paired bootstrap interval of the difference (pass: its low end is above -max_drop). Needs baseline_judge and candidate_judge."
      ),
      repeatability: {
        type: 'object',
        additionalProperties: false,
        required: ['max_flip_share'],
        description: 'Anchors scored more than once (the same id on several records).',
        properties: { max_flip_share: share('Most share of repeated items whose judge label is not the same every time.') }
      },
      position: {
        type: 'object',
        additionalProperties: false,
        required: ['min_consistent'],
        description: 'Pairwise judges scored in both orders (judge_swapped: the label with the answers shown the other way round, written in the same terms).',
        properties: { min_consistent: share('Fewest share of items whose label is the same in both orders.') }
      },
      length_bias: {
        type: 'object',
        additionalProperties: false,
        required: ['score', 'length'],
        description: "How the change of a judge score relates to the change of answer length, query by query (Spearman's rho of the two changes), overall and per slice.",
        properties: {
          score: { type: 'string', minLength: 1, description: 'The judge-scored metric (a key of metrics).' },
          length: { type: 'string', minLength: 1, description: 'The numeric per-query field holding the answer length (characters or tokens) on both sides.' },
          per_slice: { type: 'string', minLength: 1, description: 'Query attribute to break the diagnostic down by.' },
          max_correlation: {
            type: 'number',
            minimum: -1,
            maximum: 1,
            description: "Most Spearman's rho of d_score vs d_length allowed in any slice: above it, the score rewards longer answers more than the rules accept."
          }
        }
      }
    }
  }
} as const
