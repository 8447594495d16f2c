// The route table: which operation a method and path name, before anything else is looked at.
// Matching is pure (no store access), so it may run before authentication without leaking state.

export type OperationId = 'listPets' | 'createPet' | 'getPet' | 'listOrders';

interface Route {
  readonly pattern: RegExp;
  /** HEAD is served as GET; node:http drops the body of a HEAD response. */
  readonly methods: Readonly<Record<string, OperationId>>;
  readonly deprecated?: boolean;
}

const ROUTES: readonly Route[] = [
  { pattern: /^\/v1\/pets$/, methods: { GET: 'listPets', HEAD: 'listPets', POST: 'createPet' } },
  { pattern: /^\/v1\/pets\/([^/]+)$/, methods: { GET: 'getPet', HEAD: 'getPet' }, deprecated: true },
  { pattern: /^\/v1\/store\/orders$/, methods: { GET: 'listOrders', HEAD: 'listOrders' } },
];

export type RouteMatch =
  | { kind: 'operation'; operation: OperationId; params: string[]; deprecated: boolean }
  | { kind: 'method-not-allowed'; allow: string; deprecated: boolean }
  | { kind: 'not-found'; deprecated: false };

export function matchRoute(method: string, pathname: string): RouteMatch {
  for (const route of ROUTES) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const deprecated = route.deprecated ?? false;
    const operation = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
    if (operation === undefined) {
      return { kind: 'method-not-allowed', allow: Object.keys(route.methods).join(', '), deprecated };
    }
    return { kind: 'operation', operation, params: found.slice(1), deprecated };
  }
  return { kind: 'not-found', deprecated: false };
}

/** The methods some route has (GET, HEAD, POST): any other is one this server does not implement (variation unknown-method-501). */
const ROUTED_METHODS: ReadonlySet<string> = new Set(ROUTES.flatMap((route) => Object.keys(route.methods)));

export function isRoutedMethod(method: string): boolean {
  return ROUTED_METHODS.has(method);
}
