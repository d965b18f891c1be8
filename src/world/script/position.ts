/** 1-based line and column inside the script, and the 0-based offset (UTF-16 units). */
export interface ScriptPosition {
  line: number;
  column: number;
  offset: number;
}
