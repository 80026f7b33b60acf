/**
 * The JSON Schema of one line of an evaluation set (JSON Lines, one question per line). It lives in code so
 * the validator and the published `rules/dataset.schema.json` can never disagree: `npm run schema` writes
 * the file from this object. The schema checks shapes; the rules a schema cannot express (gold exists in the
 * corpus, answerable has gold, ...) are in `semantic.ts`.
 */

/** Fields of a question whose change must be declared in its changelog (they decide what counts as correct). */
export const GUARDED_FIELDS = [
  'question',
  'answerable',
  'gold_chunk_ids',
  'graded_relevance',
  'key_facts',
  'distractors'
] as const

const chunkId = { type: 'string', minLength: 1, description: 'A chunk id of the frozen corpus listing.' } as const

export const DATASET_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://github.com/retrieval-gate/retrieval-gate/blob/v1/rules/dataset.schema.json',
  title: 'retrieval-gate evaluation-set question',
  description: 'One line of an evaluation set (JSON Lines): one question, its gold evidence, and how it was reviewed.',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'question', 'answerable', 'gold_chunk_ids', 'split'],
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'Stable id; the query_id of the runs. A question whose text or gold changes gets a new id or a changelog entry.'
    },
    question: { type: 'string', minLength: 1, description: 'The question as the system receives it.' },
    answerable: {
      type: 'boolean',
      description: 'False when the corpus holds no answer: the right behaviour is to abstain.'
    },
    gold_chunk_ids: {
      type: 'array',
      items: chunkId,
      uniqueItems: true,
      description:
        'Chunks that contain the answer (relevant, grade 1 unless graded_relevance says more). Empty exactly when unanswerable.'
    },
    key_facts: {
      type: 'array',
      description: 'The facts a complete answer needs, each with the chunks that support it (FactRecall@k).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'chunk_ids'],
        properties: {
          id: { type: 'string', minLength: 1, description: 'Unique within the question.' },
          text: { type: 'string', description: 'The fact in words (for reviewers).' },
          chunk_ids: {
            type: 'array',
            items: chunkId,
            minItems: 1,
            uniqueItems: true,
            description: 'Gold chunks that support the fact.'
          }
        }
      }
    },
    graded_relevance: {
      type: 'object',
      description:
        'Chunk id -> grade 0..3 (0 judged not relevant, 3 perfectly relevant). Gold chunks not listed count as grade 1.',
      propertyNames: { minLength: 1 },
      additionalProperties: { type: 'integer', minimum: 0, maximum: 3 }
    },
    distractors: {
      type: 'array',
      items: chunkId,
      uniqueItems: true,
      description: 'Chunks that look relevant but are not (judged grade 0 unless graded).'
    },
    category: { type: 'string', minLength: 1, description: 'A slice of the report (e.g. billing, api).' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    difficulty: { enum: ['easy', 'medium', 'hard'] },
    split: { enum: ['dev', 'holdout'], description: 'dev: tune on it; holdout: the gate grades on it (by default).' },
    answer: { type: 'string', description: 'A reference answer (not used by the retrieval metrics).' },
    review: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      description:
        'Who checked the question and gold, how, and the outcome. Disputed questions stay in the file but are excluded from gated metrics (counted).',
      properties: {
        by: {
          oneOf: [
            { type: 'string', minLength: 1 },
            { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 }
          ]
        },
        method: {
          type: 'string',
          minLength: 1,
          description: 'e.g. single-annotator, double-annotated, adjudicated, llm-assisted.'
        },
        status: { enum: ['pending', 'accepted', 'disputed'] },
        note: { type: 'string' }
      }
    },
    changelog: {
      type: 'array',
      description:
        'Declared changes to this question, oldest first. A change of question, answerable, gold_chunk_ids, graded_relevance, key_facts or distractors against the previous copy of the dataset needs a new entry naming the field. A change of split, review status, category or difficulty, or a removed question, is listed by `validate --previous` even with an entry: it changes the exam.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['changed', 'reason'],
        properties: {
          changed: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { enum: [...GUARDED_FIELDS, 'category', 'tags', 'difficulty', 'split', 'review'] }
          },
          reason: { type: 'string', minLength: 1 },
          by: { type: 'string' },
          date: { type: 'string' }
        }
      }
    },
    meta: { type: 'object', description: 'Free-form fields of your own (ignored by the gate).' }
  }
} as const
