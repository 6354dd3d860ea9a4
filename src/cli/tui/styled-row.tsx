import { Text } from 'ink';

/** A run of text with one style. */
export interface StyledSegment {
  readonly text: string;
  readonly color?: string | undefined;
  readonly dim?: boolean;
  readonly bold?: boolean;
}

/** One screen row made of styled segments. Exactly one terminal row tall: anything wider is cut, never wrapped. */
export type StyledRow = readonly StyledSegment[];

export function StyledRowText({ row }: { readonly row: StyledRow }) {
  return (
    <Text wrap="truncate-end">
      {row.map((segment, index) => (
        <Text key={index} color={segment.color} dimColor={segment.dim === true} bold={segment.bold === true}>
          {segment.text}
        </Text>
      ))}
    </Text>
  );
}
