// Child process for the crash and two-writer tests: appends numbered messages to a session using
// the built @ollm/core (dist), optionally forever (until killed).
import { SessionHistory } from '../../../dist/index.js';

const [home, sessionId, writer, countText] = process.argv.slice(2);
const count = countText === 'forever' ? Number.POSITIVE_INFINITY : Number(countText);
const history = new SessionHistory({ home, sessionId });
const filler = 'x'.repeat(500);
for (let index = 0; index < count; index += 1) {
  history.append({ id: `${writer}-${index}`, role: 'user', parts: [{ type: 'text', text: `${writer} ${index} ${filler}` }] }, 1);
  if (index === 20) process.stdout.write('ready\n');
}
history.close();
