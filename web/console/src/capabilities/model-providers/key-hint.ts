/** Whether a key's hint shows none of it: the API gives the last four characters only of a key of eight or more, else a bare "…". */
export const shortKey = (hint: string) => hint.replace('…', '').length === 0;
