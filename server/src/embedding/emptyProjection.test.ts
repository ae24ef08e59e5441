import { projectionSchema } from '@webbridge/contract';
import { aConversationSummary } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { emptyProjection } from './emptyProjection';

const conversation = aConversationSummary({ projectId: 'main' });
const model = { id: 'echo', name: 'Echo', provider: 'test' };

describe('emptyProjection', () => {
  it('is a valid projection of one empty conversation, one project and one model', () => {
    const projection = emptyProjection({ conversation, model });
    expect(projectionSchema.parse(projection)).toEqual(projection);
    expect(projection).toMatchObject({
      sessionRevision: 0,
      conversationId: 'c1',
      projectId: 'main',
      conversations: { list: [conversation], messages: [], pending: [], run: { state: 'idle' } },
      projects: { roots: [] },
      models: { current: 'echo', list: [model] },
      tools: { list: [] },
      approvals: [],
    });
    expect(projection.projects.list.map((p) => p.id)).toEqual(['main']);
  });

  it('gives each run of the app a new instanceId', () => {
    const a = emptyProjection({ conversation, model }).instanceId;
    expect(a).not.toBe(emptyProjection({ conversation, model }).instanceId);
  });
});
