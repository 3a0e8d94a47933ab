import { BrandsPanel } from './brands-panel';

/** /admin/brand: the Brands list on its own. */
export default function BrandsPage() {
  return <BrandsPanel headingOrder={2} />;
}
