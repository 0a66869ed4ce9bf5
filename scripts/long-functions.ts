// Lists the functions in src/ longer than a limit (default 100 lines), longest first: issue 35's
// measure of the heart's shape. `node scripts/long-functions.ts [limit]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('../', import.meta.url).pathname;
const limit = Number(process.argv[2]) || 100;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const long: { where: string; name: string; lines: number }[] = [];
for (const file of files(join(root, 'src'))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) {
        const named =
          node.name?.getText(source) ??
          (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
        long.push({ where: `${relative(root, file)}:${start + 1}`, name: named, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
long.sort((a, b) => b.lines - a.lines);
for (const f of long) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.where}`);
console.log(`${long.length} functions over ${limit} lines`);
