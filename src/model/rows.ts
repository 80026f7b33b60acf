/**
 * The typed shapes that flow through the pipeline. Inputs are read once into these; every later stage is a
 * pure function of them. Maps (not plain objects) hold user-named keys, so an id or field called
 * `__proto__` or `constructor` is plain data.
 */

/** One query's record on one side (baseline or candidate), as read from a rows file or computed from a run. */
export interface QueryRow {
  /** Query id exactly as written (a string; "01" and "1" differ, no Unicode normalisation). */
  id: string
  /** 1-based line in the source file where the record starts (0 when computed, e.g. a judged query absent from a run). */
  line: number
  /** Metric values by field name; null = the field was present but empty/null (a missing value). */
  values: Map<string, number | null>
  /** Attribute values by field name (slices, clusters, strata), as strings. */
  attrs: Map<string, string>
}

/** Everything read from one side's file. */
export interface SideRows {
  /** The file as the user named it. */
  source: string
  rows: QueryRow[]
  /** Field names seen that hold numbers / strings (for "did you mean" and `init`). */
  numericFields: Set<string>
  attributeFields: Set<string>
  /** Facts about how the rows were made that the report must show (e.g. queries scored 0 because absent from a run). */
  notes: string[]
}
