/** The admin key every test app is bootstrapped with (startServer and the HTTP spec alike). */
export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
