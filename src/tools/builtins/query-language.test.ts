import { describe, expect, it } from 'vitest';
import { looksNonEnglish } from './query-language.js';

describe('looksNonEnglish', () => {
  it.each([
    'beste Restaurants in München',
    'wie funktioniert ein Wärmepumpe',
    'meilleurs restaurants à Munich',
    'pourquoi le ciel est bleu',
    'cómo hacer pan casero',
    'melhores praias do Brasil',
    'migliori ristoranti di Roma',
    'hoe werkt een warmtepomp',
    'лучшие рестораны Мюнхена',
    '東京 ラーメン おすすめ',
    '北京烤鸭 做法',
    'أفضل مطاعم في دبي',
    'München Wetter',
  ])('flags %j', (query) => {
    expect(looksNonEnglish(query)).toBe(true);
  });

  it.each([
    'best restaurants in Munich',
    'how does a heat pump work',
    'how to make crème brûlée at home',
    'typescript zod v4 discriminated union',
    'Los Angeles weather tomorrow',
    'smith et al 2020 attention',
    'node 20 AbortSignal.any',
    'iPhone 15 price',
    '2 + 2',
    '',
  ])('leaves %j alone', (query) => {
    expect(looksNonEnglish(query)).toBe(false);
  });
});
