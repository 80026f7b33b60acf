/**
 * Where the rules and the baseline came from. A reviewer must be able to tell that the rules enforced are the
 * base branch's (a PR cannot loosen its own gate) and how old and from which commit the baseline is (a stale or
 * unrelated baseline makes any comparison meaningless). Filled in by the action (src/github/); the CLI leaves it
 * out. Pure data: rendering it needs no clock (ages are computed by the caller from its injected clock).
 */
export interface Provenance {
  rules?: RulesProvenance
  baseline?: BaselineProvenance
  /** The exam files the rules name, when they were read at the base commit (rules-from: base); else absent. */
  exam?: ExamFileProvenance[]
  /** The reference rows the budgets were spent against (rules `reference`), when read by the action. */
  reference?: ReferenceProvenance
  /** Plain-words warnings shown near the verdict (never change the verdict). */
  warnings: string[]
}

export interface RulesProvenance {
  /** `base`: read at the PR's base commit through the API; `workspace`: the checked-out file. */
  from: 'base' | 'workspace'
  /** Why this source: `input` (rules-from was given) or `default` (the event's default). */
  chosenBy: 'input' | 'default'
  file: string
  /** sha256 of the rules text that was enforced. */
  sha256: string
  /** The commit the rules were read at (base mode). */
  commit?: string
  /** sha256 of the workspace copy when it differs from the enforced one (the PR changes the rules). */
  workspaceSha256?: string
}

/**
 * One exam file (judgments, evaluation set, corpus listing, dataset manifest) read at the PR's base commit: the
 * copy that graded the PR, and whether the PR's own copy differs (its change applies after merge).
 */
export interface ExamFileProvenance {
  /** The path in the repository. */
  file: string
  /** The commit it was read at. */
  commit: string
  /** sha256 of the base copy, the one the gate read. */
  sha256: string
  bytes: number
  /** sha256 of the workspace copy when it differs (the PR changes the file). */
  workspaceSha256?: string
}

export interface BaselineProvenance {
  from: 'file' | 'artifact'
  /** The rows file as read (inside the artifact for `artifact`). */
  file: string
  artifact?: {
    name: string
    id: number
    runId: number
    runUrl: string
    branch: string
    /** The commit the baseline run was built from. */
    commit: string
    createdAt: string
    /** Whole seconds between the artifact's creation and the gate's run. */
    ageSeconds: number
  }
}

/**
 * Where the reference rows (rules `reference`, the last release) came from, stated like the baseline's: a
 * file read at a tag/ref (with the commit it resolved to and that commit's age), or an artifact of a run.
 */
export interface ReferenceProvenance {
  from: 'ref' | 'artifact' | 'file'
  /** The rows file as named (the path in the repository, or the file inside the artifact). */
  file: string
  /** The tag, branch or commit read (from: ref). */
  ref?: string
  /** The commit the rows were read at, or the artifact's run was built from. */
  commit?: string
  /** When that commit was made (ref) or the artifact created, and whole seconds before the gate's run. */
  date?: string
  ageSeconds?: number
  artifact?: { name: string; id: number; runId: number; runUrl: string }
}
