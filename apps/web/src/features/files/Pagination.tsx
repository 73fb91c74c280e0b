/** Items per page (20, 100, All) and the page shown (docs/product.md "Screens"). */
import { Button } from '@sealbox/ui';
import { Icon } from './icons.tsx';
import { PAGE_SIZES, type PageSize } from './sorting.ts';
import './pagination.css';

export function Pagination({
  from,
  to,
  total,
  page,
  pageCount,
  pageSize,
  onPage,
  onPageSize,
}: {
  from: number;
  to: number;
  total: number;
  page: number;
  pageCount: number;
  pageSize: PageSize;
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
}) {
  return (
    <nav className="pagination" aria-label="Pagination">
      <label className="pagination__size">
        <span>Items per page</span>
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value) as PageSize)}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size === 0 ? 'All' : size}
            </option>
          ))}
        </select>
      </label>
      <span className="pagination__range" aria-live="polite">
        {from}–{to} of {total}
      </span>
      <div className="pagination__buttons">
        <Button size="sm" variant="secondary" onClick={() => onPage(page - 1)} disabled={page <= 0} aria-label="Previous page">
          {Icon.chevronLeft(16)}
        </Button>
        <span className="pagination__page">
          Page {page + 1} of {pageCount}
        </span>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onPage(page + 1)}
          disabled={page >= pageCount - 1}
          aria-label="Next page"
        >
          {Icon.chevronRight(16)}
        </Button>
      </div>
    </nav>
  );
}
