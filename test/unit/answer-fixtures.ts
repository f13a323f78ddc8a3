import type { ContextPassage } from '../../src/ports/models.ts';

/** Three passages of different topics, each with sentences that nearly answer the others' questions. */
export const PASSAGES: ContextPassage[] = [
  {
    index: 1,
    text: 'Northwind Traders is a wholesale distributor of specialty foods. The company was founded in 1994 by Margaret Peacock in Seattle. Northwind ships to customers in 21 countries. Its catalogue lists more than 70 products.',
  },
  {
    index: 2,
    text: 'Contoso Pharmaceuticals develops generic medicines. Contoso was established in 2003 and is headquartered in Lyon, France. The firm employs 1,250 researchers. Contoso ships to pharmacies in 8 countries.\nA biosimilar is a biological medicine that is highly similar to an already approved reference medicine.',
  },
  {
    index: 3,
    text: 'Orders placed before noon ship the same day. Refunds are issued within 14 days after the returned item arrives at the warehouse. Gift cards cannot be refunded. Shipping delays usually happen because customs inspections take longer during holidays.',
  },
];

/** Every cited sentence of an answer, with its marker taken out, must be a passage's own words. */
export function quotedSentences(answer: string): { text: string; citation: number }[] {
  return [...answer.matchAll(/(?:^|\s)(.+?) \[(\d+)\]([.!?…]?)(?=\s|$)/g)].map((m) => ({ text: `${m[1]}${m[3]}`, citation: Number(m[2]) }));
}

export function isVerbatim(answer: string, passages: readonly ContextPassage[]): boolean {
  const quoted = quotedSentences(answer);
  return (
    quoted.length > 0 &&
    quoted.every(({ text, citation }) => {
      const passage = passages.find((p) => p.index === citation);
      return passage !== undefined && passage.text.replace(/\s+/g, ' ').includes(text.replace(/^… | …$/g, ''));
    })
  );
}
