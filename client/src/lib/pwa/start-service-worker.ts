import { registerSW } from 'virtual:pwa-register';
import { registerServiceWorker } from './register-service-worker';

/** The lazy chunk schedule-service-worker.ts loads: registration with vite-plugin-pwa's module. */
export function startServiceWorker(): void {
  registerServiceWorker(registerSW);
}
