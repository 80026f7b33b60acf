import { InputError, type Where } from '../errors.js'
import { quote } from '../util/show.js'

/**
 * The refusal of a non-finite value (`NaN`, `Infinity`, `-Infinity`, as a number or as the word a tool wrote) in a
 * field the rules read: the gate never compares NaN, and a missing value has its own spelling and its own rule.
 * (Python's `json.dump` writes those words bare; src/readers/json/document.ts reads them where a value starts.)
 */
export function nonFiniteRefusal(where: Where, field: string, value: number | string): InputError {
  const word = typeof value === 'number' ? (Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity') : value
  const why = /nan/i.test(word)
    ? `Python's json.dump writes float("nan") so; JSON has no NaN`
    : `a value beyond the double range, or Python's json.dump of float("inf")`
  return new InputError(
    where,
    `${quote(field)} is ${word}, not a number the gate can compare (${why})`,
    'write null or drop the field where the value is missing (queries.missing decides what the gate does with a missing value), or fix what computed it'
  )
}
