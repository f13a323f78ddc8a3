import test from 'ava';
import { withService } from '../helpers/services.ts';
import { testMongoWireStores } from './mongo-wire/stores.ts';

withService(test, 'mongodb read models, checkpoints and GridFS blobs', ['MONGODB_URL'], ({ MONGODB_URL }) =>
  testMongoWireStores(test, MONGODB_URL!, { store: 'mongodb', gridfs: 'gridfs', bus: 'in-process bus with mongodb checkpoints' }),
);
