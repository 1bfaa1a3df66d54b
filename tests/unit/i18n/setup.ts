// Unit and component tests read the English catalogue, as the e2e tests' browsers do: names that
// tests look elements up by (ui-contract.md) are English.
import { useMessageLookup } from '@/lib/i18n';
import { catalogueLookup } from './catalogue';

useMessageLookup(catalogueLookup('en'));
