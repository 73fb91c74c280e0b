/** The 'live' benches' short modes (bench/short.ts says what is checked). */
import { shortBenchSuite } from './short.ts';

await shortBenchSuite('live');
