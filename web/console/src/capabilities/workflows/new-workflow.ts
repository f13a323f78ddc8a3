/** `/workflows/new`: a canvas created on its first save, opened with a start node (the list's "New workflow" creates through the API instead). */
export const NEW_WORKFLOW = 'new';
