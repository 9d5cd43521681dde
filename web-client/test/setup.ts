// IndexedDB globals (IDBObjectStore, IDBKeyRange, …) for tests running in Node.
import 'fake-indexeddb/auto';
