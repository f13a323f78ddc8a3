/** The path "New workflow" opens for a blank one, `/workflows/new`: it is created on its first save (the API takes no graph without a start and a reply). */
export const NEW_WORKFLOW = 'new';
