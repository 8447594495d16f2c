// `${VAR}` and `${VAR:-default}` substitution over a parsed YAML tree. Done on string values after
// parsing, never on the raw text, so a value holding `:` or `#` cannot change the document's shape.

export interface Substitution {
  value: unknown;
  /** Variables referenced but unset (and without a default), with the field that wanted each. */
  missing: { variable: string; field: string }[];
  /** Fields whose whole value was one `${VAR}`: the variable they came from (for reproductions). */
  sources: Map<string, string>;
}

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}$/;

export function fieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || '(root)';
}

export class SubstitutionSyntaxError extends Error {
  constructor(
    readonly field: string,
    readonly expression: string,
  ) {
    super(`${field}: "\${${expression}}" is not a valid variable reference (use \${NAME} or \${NAME:-default})`);
  }
}

/** Shell semantics: `${VAR:-d}` gives d when VAR is unset or empty; `${VAR}` needs VAR set. */
export function substitute(tree: unknown, env: Readonly<Record<string, string | undefined>>): Substitution {
  const missing: Substitution['missing'] = [];
  const sources = new Map<string, string>();

  const walk = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node === 'string') {
      const field = fieldPath(path);
      const whole = WHOLE.exec(node);
      if (whole?.[1]) sources.set(field, whole[1]);
      return node.replace(PATTERN, (_match, name: string | undefined, fallback: string | undefined, bad: string | undefined) => {
        if (name === undefined) throw new SubstitutionSyntaxError(field, bad ?? '');
        const value = env[name];
        if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
        if (value === undefined) {
          missing.push({ variable: name, field });
          return '';
        }
        return value;
      });
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = walk(v, [...path, k]);
      return out;
    }
    return node;
  };

  return { value: walk(tree, []), missing, sources };
}
