import type { GrievanceRow, GrievanceView } from '@pm/protocol/grievance';

/** A grievance as the server lists it (its row), with `over` winning. */
export function rowFixture(over: Partial<GrievanceRow> = {}): GrievanceRow {
  return {
    id: 'g-1',
    number: 'G2026-27-000007',
    subject: 'DONATION',
    subjectId: 'order-9',
    title: 'No receipt came',
    status: 'OPEN',
    reportReason: null,
    raiser: { id: 'demo-learner', name: 'Lata Learner' },
    owner: null,
    dueAt: Date.UTC(2026, 6, 10, 6, 0),
    overdue: false,
    createdAt: Date.UTC(2026, 5, 10, 6, 0),
    updatedAt: Date.UTC(2026, 5, 10, 6, 0),
    resolvedAt: null,
    ...over,
  };
}

/** A grievance with its thread. */
export function viewFixture(over: Partial<GrievanceView> = {}): GrievanceView {
  return { ...rowFixture(), text: 'I gave ₹51 and no receipt came.', contact: null, resolutionNote: null, reopenUntil: null, messages: [], ...over };
}
