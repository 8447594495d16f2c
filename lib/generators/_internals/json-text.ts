// Building JSON text member by member, so that a single value can be written literally (a
// fraction, an integer beyond int64, NaN) where no JavaScript value would produce it.
import { stringifyJson } from '../../json.ts';

/** [key, value as JSON text]. */
export type Member = readonly [key: string, valueText: string];

/** `{"k":v,...}` with the values as given. */
export function objectText(members: readonly Member[]): string {
  return `{${members.map(([key, value]) => `${stringifyJson(key)}:${value}`).join(',')}}`;
}

/** A string as a JSON string literal. */
export function stringText(value: string): string {
  return stringifyJson(value);
}
