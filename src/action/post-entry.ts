import { requireActionNode } from './require-action-node.ts';

// As in index.ts: the Node version first, then the modules that need it.
requireActionNode('post');
const { post } = await import(/* webpackMode: "eager" */ './post.ts');

await post();
