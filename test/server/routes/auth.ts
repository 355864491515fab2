/** `GET /api/auth/me`: who the key belongs to. */
import type { Route } from '../router';
import { apiRoute } from './api';

export function authRoutes(): Route[] {
  return [
    apiRoute('GET', /^\/api\/auth\/me$/, 'me', 'any', ({ auth }) => ({
      status: 200,
      body: { id: auth!.user.id, email: auth!.user.email, role: auth!.user.role, email_verified: true },
    })),
  ];
}
