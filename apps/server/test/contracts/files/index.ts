import type { MakeDb } from '../db.contract.ts';
import { blocksContract } from './blocks.contract.ts';
import { itemsContract } from './items.contract.ts';
import { linksContract } from './links.contract.ts';
import { partsContract } from './parts.contract.ts';
import { peopleContract } from './people.contract.ts';
import { quotaContract } from './quota.contract.ts';
import { sharingContract } from './sharing.contract.ts';
import { filesStoreContract } from './store.contract.ts';
import { uploadsContract } from './uploads.contract.ts';
import { versionsContract } from './versions.contract.ts';

/** The contract of every port of the files store (ports/files.ts, ports/files/), over one database. */
export function filesStoreContracts(name: string, makeDb: MakeDb): void {
  itemsContract(name, makeDb);
  partsContract(name, makeDb);
  uploadsContract(name, makeDb);
  versionsContract(name, makeDb);
  sharingContract(name, makeDb);
  blocksContract(name, makeDb);
  linksContract(name, makeDb);
  peopleContract(name, makeDb);
  quotaContract(name, makeDb);
  filesStoreContract(name, makeDb);
}
